/**
 * Test helper for feed tests: replay HTTP clients and temporary replay folders that belong to one test file,
 * closed and removed after its tests. Call `replayFixtures()` once at the file's top level: it registers the
 * file's `afterAll`.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll } from "vitest";
import { type ClosableHttpClient, createHttpClient } from "../http/client.ts";
import { replayPathFor } from "../replay-path.ts";

/** A recording: the body (status 200), or the status and the body. */
export type Recording = string | [status: number, body: string];

/** What one test file's replays are made of. */
export interface ReplayFixtures {
  /** A client that answers from the recordings in `replayDir`, without retries or waits. */
  client(replayDir: string): ClosableHttpClient;
  /** A new empty folder in the OS temp dir, its name starting with `prefix`. */
  tempDir(prefix: string): string;
  /** A new replay folder holding only `files` (URL → recording). */
  replayOf(prefix: string, files: Record<string, Recording>): string;
}

/** The clients and temp folders of one test file, all closed and removed after its tests. */
export function replayFixtures(): ReplayFixtures {
  const clients: ClosableHttpClient[] = [];
  const temps: string[] = [];
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    for (const t of temps) rmSync(t, { recursive: true, force: true });
  });
  const tempDir = (prefix: string): string => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    temps.push(dir);
    return dir;
  };
  return {
    client(replayDir) {
      const c = createHttpClient({ replayDir, retries: 0, sleep: async () => {} });
      clients.push(c);
      return c;
    },
    tempDir,
    replayOf(prefix, files) {
      const dir = tempDir(prefix);
      for (const [url, recording] of Object.entries(files)) {
        const path = join(dir, replayPathFor(url));
        mkdirSync(dirname(path), { recursive: true });
        const [status, body] = typeof recording === "string" ? [200, recording] : recording;
        writeFileSync(path, body);
        if (status !== 200) writeFileSync(`${path}.meta.json`, JSON.stringify({ status }));
      }
      return dir;
    },
  };
}
