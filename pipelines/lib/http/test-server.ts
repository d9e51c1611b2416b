/**
 * A real node:http server on 127.0.0.1 with a free port, for the HTTP client's tests: it records every
 * request and hands it to a swappable handler.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type TestHandler = (req: IncomingMessage, res: ServerResponse, hit: number) => void;

/** A running test server. */
export interface TestServer {
  /** Absolute URL of `path` on this server. */
  url(path: string): string;
  /** Requests received, in order. */
  requests: IncomingMessage[];
  handler: TestHandler;
  close(): Promise<void>;
}

/** Start a test server answering with `handler` (replaceable later through `.handler`). */
export async function startTestServer(handler: TestHandler): Promise<TestServer> {
  const requests: IncomingMessage[] = [];
  const state: TestServer = {
    url: () => "",
    requests,
    handler,
    close: async () => undefined,
  };
  const server = createServer((req, res) => {
    requests.push(req);
    state.handler(req, res, requests.length);
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", () => ok()));
  const { port } = server.address() as AddressInfo;
  state.url = (path) => `http://127.0.0.1:${port}${path}`;
  state.close = () =>
    new Promise<void>((ok) => {
      server.close(() => ok());
      server.closeAllConnections();
    });
  return state;
}
