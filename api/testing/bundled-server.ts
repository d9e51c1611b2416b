/**
 * The real server on the bundled snapshots for the calling test file: a free port on 127.0.0.1, no state
 * (premium and payment routes answer 503), no rate limit. Read `server()` inside tests.
 */
import { cp, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll } from "vitest";
import { startServer, type RunningServer } from "../server.ts";

export const BUNDLED_SNAPSHOTS = resolve(import.meta.dirname, "../../snapshots");

/**
 * A copy of the bundled snapshots in a new temp folder (the caller removes it) whose manifest says every type
 * last succeeded at `now`: paid calls over it are charged whatever the age of the committed data, as on an
 * instance whose feeds keep running. `warehouse: false` leaves the warehouse out.
 */
export async function freshBundledCopy(options: { warehouse?: boolean; now?: Date } = {}): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "agentfeed-bundled-"));
  const warehouse = join(BUNDLED_SNAPSHOTS, "warehouse");
  await cp(BUNDLED_SNAPSHOTS, dir, { recursive: true, filter: (src) => options.warehouse !== false || !src.startsWith(warehouse) });
  const at = (options.now ?? new Date()).toISOString();
  const manifestPath = join(dir, "manifest.json");
  const manifest = JSON.parse(await readFile(manifestPath, "utf8")) as { types: Record<string, Record<string, unknown>> };
  for (const meta of Object.values(manifest.types)) Object.assign(meta, { lastSuccess: at, lastAttempt: at });
  await writeFile(manifestPath, JSON.stringify(manifest, null, 2));
  return dir;
}

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
