/**
 * The real server on the bundled snapshots for the calling test file: a free port on 127.0.0.1, no state
 * (premium and payment routes answer 503), no rate limit. Read `server()` inside tests.
 */
import { resolve } from "node:path";
import { afterAll, beforeAll } from "vitest";
import { startServer, type RunningServer } from "../server.ts";

export const BUNDLED_SNAPSHOTS = resolve(import.meta.dirname, "../../snapshots");

export function useBundledServer(): () => RunningServer {
  let running: RunningServer | undefined;
  beforeAll(async () => {
    running = await startServer({
      state: false,
      port: 0,
      host: "127.0.0.1",
      snapshotsDir: BUNDLED_SNAPSHOTS,
      rateLimitPerMinute: 0,
      trustProxy: null,
      onWarn: () => {},
    });
  });
  afterAll(async () => running?.close());
  return () => {
    if (!running) throw new Error("useBundledServer(): the server is not started yet");
    return running;
  };
}
