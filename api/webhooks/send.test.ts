import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import type { LookupAll } from "./callback-check.ts";
import { MAX_RESPONSE_BYTES, sendWebhook } from "./send.ts";

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise<void>((ok) => s.close(() => ok()) && s.closeAllConnections())));
});

/** A local listener; returns its port and the count of connections it saw. */
async function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ port: number; connections: () => number }> {
  const server = createServer(handler);
  let connections = 0;
  server.on("connection", () => connections++);
  servers.push(server);
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  return { port: (server.address() as AddressInfo).port, connections: () => connections };
}

describe("sendWebhook", () => {
  it("connects to the checked address while keeping the URL's host in the Host header (no second lookup)", async () => {
    const seen: { host?: string; body?: string; signature?: string } = {};
    const { port } = await listen((req, res) => {
      let body = "";
      req.on("data", (c: Buffer) => (body += c.toString("utf8")));
      req.on("end", () => {
        Object.assign(seen, { host: req.headers.host, body, signature: req.headers["x-service-signature"] });
        res.writeHead(204).end();
      });
    });
    let lookups = 0;
    // receiver.invalid resolves nowhere but in this lookup: a second (system) lookup would fail the send.
    const lookup: LookupAll = async (name) => {
      lookups++;
      return name === "receiver.invalid" ? [{ address: "127.0.0.1", family: 4 }] : [];
    };
    const outcome = await sendWebhook({ url: `http://receiver.invalid:${port}/hook?a=1`, body: '{"x":1}', headers: { "x-service-signature": "sha256=ab" }, allowPrivate: true, lookup });
    expect(outcome).toMatchObject({ delivered: true, statusCode: 204, error: null });
    expect(lookups).toBe(1);
    expect(seen).toEqual({ host: `receiver.invalid:${port}`, body: '{"x":1}', signature: "sha256=ab" });
  });

  it("does not follow a redirect to a private address: a 3xx is a failure and the target sees nothing", async () => {
    const target = await listen((_req, res) => res.end("reached"));
    const redirector = await listen((_req, res) => res.writeHead(307, { location: `http://127.0.0.1:${target.port}/` }).end());
    const outcome = await sendWebhook({ url: `http://127.0.0.1:${redirector.port}/`, body: "{}", headers: {}, allowPrivate: true });
    expect(outcome).toMatchObject({ delivered: false, statusCode: 307 });
    expect(outcome.error).toMatch(/redirects are not followed/);
    expect(target.connections()).toBe(0);
  });

  it("reports a non-2xx answer as a failure with its status", async () => {
    const { port } = await listen((_req, res) => res.writeHead(503).end("busy"));
    expect(await sendWebhook({ url: `http://127.0.0.1:${port}/`, body: "{}", headers: {}, allowPrivate: true })).toMatchObject({ delivered: false, statusCode: 503, error: "HTTP 503" });
  });

  it("reads at most 64 KB of an endless response body, then drops the connection", async () => {
    let written = 0;
    let closed!: () => void;
    const gone = new Promise<void>((ok) => (closed = ok));
    const { port } = await listen((_req, res) => {
      res.writeHead(200);
      const chunk = Buffer.alloc(16 * 1024, 120);
      const pump = () => {
        while (!res.destroyed && written < 50 * 1024 * 1024 && res.write(chunk)) written += chunk.length;
        if (!res.destroyed && written < 50 * 1024 * 1024) res.once("drain", pump);
      };
      res.on("close", closed);
      pump();
    });
    const outcome = await sendWebhook({ url: `http://127.0.0.1:${port}/`, body: "{}", headers: {}, allowPrivate: true });
    expect(outcome).toMatchObject({ delivered: true, statusCode: 200 });
    await gone;
    // Socket buffers let the server write somewhat more than we read, but nowhere near the 50 MB it offered.
    expect(written).toBeLessThan(MAX_RESPONSE_BYTES + 8 * 1024 * 1024);
  });

  it("gives up on a receiver that never answers at the time-out", async () => {
    const { port } = await listen(() => undefined);
    const outcome = await sendWebhook({ url: `http://127.0.0.1:${port}/`, body: "{}", headers: {}, allowPrivate: true, timeoutMs: 300 });
    expect(outcome).toMatchObject({ delivered: false, statusCode: null, error: "timed out after 300 ms" });
  });

  it("reports a refused connection as a failure, never a throw", async () => {
    const { port } = await listen(() => undefined);
    await new Promise<void>((ok) => servers.pop()!.close(() => ok()));
    const outcome = await sendWebhook({ url: `http://127.0.0.1:${port}/`, body: "{}", headers: {}, allowPrivate: true });
    expect(outcome.delivered).toBe(false);
    expect(outcome.error).toMatch(/ECONNREFUSED/);
  });
});
