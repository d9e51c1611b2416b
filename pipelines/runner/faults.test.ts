/**
 * Fault injection through the real HTTP client against a local node:http server: after every kind of upstream
 * failure the previous snapshot bytes stay, lastError names what failed and lastSuccess keeps the first run.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHttpClient } from "../lib/http/client.ts";
import { createSnapshotStore } from "../lib/store/snapshot-store.ts";
import { runFeeds } from "./run-feeds.ts";
import { TEST_WAREHOUSE_TABLES, urlFeed } from "./test-feeds.ts";

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

const good: Handler = (_req, res) => {
  res.writeHead(200, { "content-type": "application/json" });
  res.end(JSON.stringify({ items: [{ id: "a", value: 1 }, { id: "b", value: 2 }] }));
};

const faults: { name: string; handler: Handler; expect: RegExp }[] = [
  {
    name: "HTTP 500",
    handler: (_req, res) => {
      res.writeHead(500, { "content-type": "text/plain" });
      res.end("internal error");
    },
    expect: /HttpError\(http_status\).*500/,
  },
  {
    name: "timeout",
    handler: (_req, res) => {
      setTimeout(() => good(_req, res), 8000).unref();
    },
    expect: /HttpError\(timeout\)/,
  },
  {
    name: "malformed body",
    handler: (_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end('{"items": [ {"id": "a", ');
    },
    expect: /HttpError\(malformed_body\)/,
  },
  {
    name: "oversized body",
    handler: (_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ items: Array.from({ length: 500 }, (_, i) => ({ id: `x${i}`, value: i })) }));
    },
    expect: /HttpError\(too_large\)/,
  },
  {
    name: "wrong content type",
    handler: (_req, res) => {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.end("<html><body>maintenance</body></html>");
    },
    expect: /HttpError\(wrong_content_type\)/,
  },
];

describe("runFeeds() under upstream faults", () => {
  let dir: string;
  let server: Server;
  let handler: Handler = good;
  let url: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "af-faults-"));
    server = createServer((req, res) => handler(req, res));
    await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/items.json`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((ok) => server.close(ok));
    await rm(dir, { recursive: true, force: true });
  });

  it("runFeeds() keeps the first snapshot through a 500, a timeout, a malformed, oversized and mistyped body", async () => {
    const http = createHttpClient({ retries: 0, timeoutMs: 3000, maxBytes: 4096, cacheDir: false, breakerThreshold: 100 });
    const store = createSnapshotStore({ dir: join(dir, "snapshots") });
    const feeds = { items: urlFeed("items", url) };
    const t0 = new Date("2026-03-01T10:00:00Z");
    try {
      handler = good;
      const [first] = await runFeeds({ feeds, store, http, now: t0, warehouseTables: TEST_WAREHOUSE_TABLES });
      expect(first).toMatchObject({ status: "changed", rows: 2 });
      const latest = await readFile(join(store.dir, "items/latest.json"));
      const dated = await readFile(join(store.dir, "items/2026-03-01.json"));

      for (const [i, fault] of faults.entries()) {
        handler = fault.handler;
        const now = new Date(t0.getTime() + (i + 1) * 60_000);
        const [r] = await runFeeds({ feeds, store, http, now, warehouseTables: TEST_WAREHOUSE_TABLES });
        expect(r!.status, fault.name).toBe("failed");
        expect(r!.error, fault.name).toMatch(fault.expect);
        expect(await readFile(join(store.dir, "items/latest.json")), fault.name).toEqual(latest);
        expect(await readFile(join(store.dir, "items/2026-03-01.json")), fault.name).toEqual(dated);
        const meta = (await store.manifest()).types.items!;
        expect(meta.lastError, fault.name).toMatch(fault.expect);
        expect(meta.lastSuccess, fault.name).toBe(t0.toISOString());
        expect(meta.lastAttempt, fault.name).toBe(now.toISOString());
        expect(meta.rows, fault.name).toBe(2);
      }

      handler = good;
      const recovered = new Date(t0.getTime() + 60 * 60_000);
      const [again] = await runFeeds({ feeds, store, http, now: recovered, warehouseTables: TEST_WAREHOUSE_TABLES });
      expect(again!.status).toBe("unchanged");
      const meta = (await store.manifest()).types.items!;
      expect(meta.lastError).toBeNull();
      expect(meta.lastSuccess).toBe(recovered.toISOString());
      expect(await readFile(join(store.dir, "items/latest.json"))).toEqual(latest);
    } finally {
      await http.close();
    }
  });
});
