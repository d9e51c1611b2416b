/**
 * Fault injection for every registered feed that reads an upstream, through the real HTTP client and the
 * replay server: after a good run, every upstream URL of the feed answers with one fault (500, a hang past
 * the timeout, a malformed body, an oversized body, the wrong content type). The previous snapshot must
 * survive byte for byte and the manifest must say what failed — or, for the feeds whose rules turn that
 * fault into data (a probe sample that is down, a manifest that is invalid), the run must succeed and say so.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createHttpClient } from "../lib/http/client.ts";
import { replayPathFor } from "../lib/replay-path.ts";
import { createSnapshotStore } from "../lib/store/snapshot-store.ts";
import { runFeeds } from "../runner/run-feeds.ts";
import { feeds } from "./index.ts";

/** The day the fixtures were recorded for: feeds whose URLs carry a date (a year filter, a month) match them. */
const NOW = new Date("2026-11-22T12:00:00Z");
const FIXTURES = "pipelines/fixtures";
const MAX_BYTES = 64 * 1024;

interface Fault {
  name: string;
  sidecar: Record<string, unknown>;
  body?: string;
}

const FAULTS: Fault[] = [
  { name: "http 500", sidecar: { status: 500, headers: { "content-type": "text/plain" } }, body: "internal error" },
  { name: "timeout", sidecar: { status: 200, delayMs: 1500 }, body: "{}" },
  { name: "malformed body", sidecar: { status: 200, headers: { "content-type": "application/json" } }, body: '{"data": [{"id": "x", ' },
  { name: "oversized body", sidecar: { status: 200, headers: { "content-type": "application/json" } }, body: `[${'"x",'.repeat(MAX_BYTES / 2)}"x"]` },
  { name: "wrong content type", sidecar: { status: 200, headers: { "content-type": "text/html; charset=utf-8" } }, body: "<!doctype html><html><body>Just a moment…</body></html>" },
];

/**
 * Feeds whose own rules turn some faults into data rather than a failure: a probe records any HTTP answer as
 * a sample (a 5xx or a body it cannot read is a "down" sample) and an AFTA check classifies a manifest it
 * cannot read as invalid. For these the run succeeds and says what went wrong (a notice or an unhealthy
 * source); everything else (the model catalog's price check included) must fail and keep its snapshot.
 */
const FAULT_IS_DATA: Record<string, string[]> = {
  probe: ["http 500", "malformed body", "oversized body", "wrong content type", "timeout"],
  "afta-adopters": ["malformed body", "oversized body", "wrong content type"],
};

const networked = Object.entries(feeds).filter(([, feed]) => feed.urls(NOW).length > 0);
const temps: string[] = [];
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

function faultDir(urls: string[], fault: Fault): string {
  const dir = mkdtempSync(join(tmpdir(), "af-fault-"));
  temps.push(dir);
  for (const url of urls) {
    const file = join(dir, replayPathFor(url));
    mkdirSync(dirname(file), { recursive: true });
    if (fault.body !== undefined) writeFileSync(file, fault.body);
    writeFileSync(`${file}.meta.json`, JSON.stringify(fault.sidecar));
  }
  return dir;
}

describe.each(networked)("feed %s under upstream faults", (name, feed) => {
  const dir = mkdtempSync(join(tmpdir(), `af-faults-${name}-`));
  temps.push(dir);
  const store = createSnapshotStore({ dir });
  const latest = () => readFileSync(join(dir, feed.type, "latest.json"), "utf8");

  it(`${name}: a good replay run writes the snapshot the faults must not destroy`, async () => {
    const http = createHttpClient({ replayDir: FIXTURES, retries: 0, cacheDir: false });
    try {
      const [result] = await runFeeds({ feeds: { [name]: feed }, store, http, now: NOW, provenance: "replay" });
      expect(result?.status, result?.error).toBe("changed");
    } finally {
      await http.close();
    }
  });

  for (const fault of FAULTS) {
    it(`${name}: ${fault.name} keeps the previous snapshot and records the failure`, async () => {
      const before = latest();
      const lastSuccess = (await store.manifest()).types[feed.type]?.lastSuccess;
      const http = createHttpClient({ replayDir: faultDir(feed.urls(NOW), fault), retries: 0, timeoutMs: 300, maxBytes: MAX_BYTES, cacheDir: false });
      try {
        const [result] = await runFeeds({ feeds: { [name]: feed }, store, http, now: new Date(NOW.getTime() + 60_000), provenance: "replay" });
        const meta = (await store.manifest()).types[feed.type];
        if (FAULT_IS_DATA[name]?.includes(fault.name)) {
          expect(result?.status, result?.error).not.toBe("failed");
          expect(meta?.lastError).toBeNull();
          const reported = (result?.notices.length ?? 0) > 0 || (meta?.sources ?? []).some((s) => !s.ok) || JSON.stringify(await store.latest(feed.type)).includes('"ok":false');
          expect(reported, "the run must say what failed").toBe(true);
          return;
        }
        expect(result?.status).toBe("failed");
        expect(latest()).toBe(before);
        expect(meta?.lastError).toEqual(expect.any(String));
        expect(meta?.lastSuccess).toBe(lastSuccess);
      } finally {
        await http.close();
      }
    });
  }
});
