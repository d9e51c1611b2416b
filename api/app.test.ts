import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { toNodeHandler } from "h3";
import type { AddressInfo } from "node:net";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { WAREHOUSE_TABLES } from "../pipelines/contract/warehouse-tables.ts";
import { writeWarehouse } from "../pipelines/lib/warehouse/write.ts";
import { openWarehouseReader } from "./warehouse/reader.ts";
import { createApp, type AnyRoute, type ServedSnapshots } from "./app.ts";
import { defineRoute } from "./registry/define.ts";
import { ApiError } from "./registry/types.ts";
import { guardRequest } from "./http/node-guard.ts";
import type { LoadedSnapshot } from "./registry/types.ts";

function fakeSnapshots(types: Record<string, unknown>): ServedSnapshots & { bump(): void } {
  const listeners = new Set<(g: number) => void>();
  let generation = 1;
  return {
    get generation() {
      return generation;
    },
    bump() {
      generation++;
      for (const l of listeners) l(generation);
    },
    onReload: (l) => (listeners.add(l), () => listeners.delete(l)),
    get: <T,>(t: string) =>
      t in types ? ({ type: t, data: types[t], meta: { slaSeconds: 60 } } as unknown as LoadedSnapshot<T>) : undefined,
    types: () => Object.keys(types),
    dates: () => [],
    dated: async () => undefined,
  };
}

function build(routes: AnyRoute[], snapshots = fakeSnapshots({ news: { n: 1 } }), rate = 0) {
  return createApp({ routes, snapshots, baseUrl: "http://x.test", rateLimitPerMinute: rate, trustProxy: null });
}

describe("createApp()", () => {
  it("validates the query with the route schema and answers 400 invalid_query with issues", async () => {
    const route = defineRoute({
      method: "GET",
      path: "/api/q",
      tier: "free",
      summary: "q",
      tags: [],
      query: z.object({ limit: z.coerce.number().int().min(1).max(200).default(50) }),
      response: z.object({ limit: z.number() }),
      render: (_ctx, { query }) => ({ limit: query.limit }),
    });
    const { app } = build([route]);
    expect(await (await app.request("/api/q?limit=7")).json()).toEqual({ limit: 7 });
    const bad = await app.request("/api/q?limit=500");
    expect(bad.status).toBe(400);
    const body = (await bad.json()) as { ok: boolean; error: string; message: string; issues: { path: string }[] };
    expect(body).toMatchObject({ ok: false, error: "invalid_query" });
    expect(body.issues[0]?.path).toBe("limit");
  });

  it("reads a number parameter only as a plain decimal: an empty, hex, exponent or padded value is a 400 naming it", async () => {
    const route = defineRoute({
      method: "GET",
      path: "/api/w",
      tier: "free",
      summary: "w",
      tags: [],
      query: z.strictObject({ weight: z.coerce.number().min(0).max(1).optional(), limit: z.coerce.number().int().min(1).max(200).default(50), name: z.string().optional() }),
      response: z.object({ weight: z.number().nullable(), limit: z.number() }),
      render: (_ctx, { query }) => ({ weight: query.weight ?? null, limit: query.limit }),
    });
    const { app } = build([route]);
    expect(await (await app.request("/api/w?weight=0.25&limit=12&name=")).json()).toEqual({ weight: 0.25, limit: 12 });
    expect(await (await app.request("/api/w?weight=-0&limit=7")).json()).toEqual({ weight: 0, limit: 7 });
    for (const [query, message] of [
      ["weight=", "query weight: weight is empty: give a number or leave the parameter out"],
      ["limit=0x10", 'query limit: limit must be a whole number such as 5; got "0x10"'],
      ["limit=1e1", 'query limit: limit must be a whole number such as 5; got "1e1"'],
      ["limit=%205", 'query limit: limit must be a whole number such as 5; got " 5"'],
      ["limit=%2B5", 'query limit: limit must be a whole number such as 5; got "+5"'],
      ["limit=5.", 'query limit: limit must be a whole number such as 5; got "5."'],
    ]) {
      const res = await app.request(`/api/w?${query}`);
      expect(res.status, query).toBe(400);
      expect(await res.json(), query).toMatchObject({ ok: false, error: "invalid_query", message });
    }
  });

  it("renders once per normalized input and generation, and drops the cache on reload", async () => {
    let calls = 0;
    const snapshots = fakeSnapshots({ news: { n: 1 } });
    const route = defineRoute({
      method: "GET",
      path: "/api/c",
      tier: "free",
      summary: "c",
      tags: [],
      query: z.object({ a: z.string().default("x") }),
      response: z.object({ calls: z.number() }),
      render: () => ({ calls: ++calls }),
    });
    const { app } = build([route], snapshots);
    await app.request("/api/c");
    await app.request("/api/c?a=x");
    await app.request("/api/c");
    expect(calls).toBe(1);
    await app.request("/api/c?a=y");
    expect(calls).toBe(2);
    snapshots.bump();
    expect(await (await app.request("/api/c")).json()).toEqual({ calls: 3 });
  });

  it("lets requests that miss together share one render, and renders again after a failed one", async () => {
    let calls = 0;
    let failNext = false;
    let open!: () => void;
    const snapshots = fakeSnapshots({ news: { n: 1 } });
    const route = defineRoute({
      method: "GET",
      path: "/api/slow",
      tier: "free",
      summary: "slow",
      tags: [],
      query: z.object({ a: z.string().default("x") }),
      response: z.object({ calls: z.number() }),
      render: async () => {
        const call = ++calls;
        await new Promise<void>((resolve) => (open = resolve));
        if (failNext) throw new Error("render failed");
        return { calls: call };
      },
    });
    const { app } = build([route], snapshots);
    // Fifty requests arrive while the first render runs, under two spellings of the same input.
    const answers = Array.from({ length: 50 }, (_, i) => app.request(i % 2 ? "/api/slow?a=x" : "/api/slow"));
    await expect.poll(() => calls).toBe(1);
    open();
    const bodies = await Promise.all(answers.map(async (a) => (await a).json()));
    expect(calls).toBe(1);
    expect(new Set(bodies.map((b) => JSON.stringify(b)))).toEqual(new Set(['{"calls":1}']));

    // A render that fails answers every waiting request with the error and leaves nothing cached.
    snapshots.bump();
    failNext = true;
    const failing = [app.request("/api/slow"), app.request("/api/slow")];
    await expect.poll(() => calls).toBe(2);
    open();
    expect((await Promise.all(failing)).map((r) => r.status)).toEqual([500, 500]);
    failNext = false;
    const retried = app.request("/api/slow");
    await expect.poll(() => calls).toBe(3);
    open();
    expect(await (await retried).json()).toEqual({ calls: 3 });
  });

  it("renders an expired answer again but keeps its brotli copy when the bytes did not change", async () => {
    let calls = 0;
    const items = Array.from({ length: 400 }, (_, i) => ({ i, name: `model ${i}` }));
    const route = defineRoute({
      method: "GET",
      path: "/api/big",
      tier: "free",
      summary: "big",
      tags: [],
      response: z.object({ items: z.array(z.object({ i: z.number(), name: z.string() })) }),
      render: () => (calls++, { items }),
    });
    const { app, cache } = createApp({ routes: [route], snapshots: fakeSnapshots({}), baseUrl: "http://x.test", rateLimitPerMinute: 0, trustProxy: null, cache: { ttlMs: 1 } });
    const first = await app.request("/api/big", { headers: { "accept-encoding": "br" } });
    expect(first.headers.get("content-encoding")).toBe("br");
    const before = cache.peek("GET /api/big")!;
    await new Promise((resolve) => setTimeout(resolve, 5));
    const second = await app.request("/api/big", { headers: { "accept-encoding": "br" } });
    const after = cache.peek("GET /api/big")!;
    expect(calls).toBe(2);
    expect(after).not.toBe(before);
    expect(after.encoded("br")).toBe(before.encoded("br"));
    expect(second.headers.get("etag")).toBe(first.headers.get("etag"));
    expect(Buffer.from(await second.arrayBuffer())).toEqual(Buffer.from(await first.arrayBuffer()));
  });

  it("answers 503 snapshot_unavailable when a declared snapshot is absent", async () => {
    const route = defineRoute({
      method: "GET",
      path: "/api/s",
      tier: "free",
      summary: "s",
      tags: [],
      snapshots: ["benchmarks"],
      response: z.object({}),
      render: () => ({}),
    });
    const res = await build([route]).app.request("/api/s");
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ ok: false, error: "snapshot_unavailable" });
  });

  it("turns an unexpected throw into a bare 500 internal_error without the stack", async () => {
    const route = defineRoute({
      method: "GET",
      path: "/api/boom",
      tier: "free",
      summary: "b",
      tags: [],
      response: z.object({}),
      render: () => {
        throw new TypeError("secret internals at /srv/app.ts:12");
      },
    });
    const res = await build([route]).app.request("/api/boom");
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(JSON.parse(text)).toEqual({ ok: false, error: "internal_error", message: expect.any(String) });
    expect(text).not.toContain("secret");
  });

  it("refuses two routes with the same method and path", () => {
    const r = defineRoute({ method: "GET", path: "/a", tier: "free", summary: "", tags: [], response: z.object({}), render: () => ({}) });
    expect(() => build([r, r])).toThrow(/declared twice/);
  });

  it("keys the cache only by recognized parameters: junk parameters share the answer and never add entries", async () => {
    let calls = 0;
    const route = defineRoute({
      method: "GET",
      path: "/api/j",
      tier: "free",
      summary: "j",
      tags: [],
      query: z.object({ limit: z.coerce.number().int().min(1).max(10).default(3) }),
      response: z.object({ calls: z.number() }),
      render: () => ({ calls: ++calls }),
    });
    const { app, cache } = build([route]);
    await app.request("/api/j?limit=2");
    const entries = cache.size;
    for (let i = 0; i < 50; i++) expect(await (await app.request(`/api/j?limit=2&junk=${i}`)).json()).toEqual({ calls: 1 });
    await app.request("/api/j?limit=2&limit=2");
    expect(cache.size).toBe(entries);
    expect(calls).toBe(1);
    await app.request("/api/j?limit=3");
    expect(calls).toBe(2);
  });

  it("passes the request to handle routes and never caches them", async () => {
    let n = 0;
    const route = defineRoute({
      method: "POST",
      path: "/api/h",
      tier: "payment",
      summary: "h",
      tags: [],
      body: z.object({ x: z.number() }),
      response: z.object({ n: z.number(), x: z.number() }),
      handle: (ctx, { body }) => ({ n: ++n, x: (body as { x: number }).x, ua: ctx.request.headers.get("user-agent") }),
    });
    const { app } = build([route]);
    const post = (b: string) => app.request("/api/h", { method: "POST", body: b, headers: { "content-type": "application/json", "user-agent": "t" } });
    expect(await (await post('{"x":2}')).json()).toEqual({ n: 1, x: 2, ua: "t" });
    expect(await (await post('{"x":2}')).json()).toMatchObject({ n: 2 });
    const bad = await post('{"x":"no"}');
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: "invalid_body" });
  });

  it("answers a body that is not JSON with the route's own answer when it declares one, and only that refusal", async () => {
    const route = defineRoute({
      method: "POST",
      path: "/api/rpc",
      tier: "discovery",
      summary: "t",
      tags: [],
      body: z.object({ x: z.number() }),
      response: z.object({ x: z.number() }),
      notJsonBody: () => new Response('{"own":true}', { status: 400, headers: { "Content-Type": "application/json" } }),
      handle: (_ctx, { body }) => ({ x: (body as { x: number }).x }),
    });
    const { app } = build([route]);
    const post = (b: string) => app.request("/api/rpc", { method: "POST", body: b, headers: { "content-type": "application/json" } });
    const notJson = await post('{"x":');
    expect(notJson.status).toBe(400);
    expect(notJson.headers.get("access-control-allow-origin")).toBe("*");
    expect(await notJson.json()).toEqual({ own: true });
    expect(await (await post('{"x":"no"}')).json()).toMatchObject({ ok: false, error: "invalid_body" });
    expect(await (await post("[".repeat(70) + "]".repeat(70))).json()).toMatchObject({ ok: false, error: "body_too_deep" });
    expect(await (await post('{"x":3}')).json()).toEqual({ x: 3 });
  });

  it("renders a warehouse-backed answer again once the warehouse changes, without a snapshot reload, on both paths", async () => {
    const dir = await mkdtemp(join(tmpdir(), "agentfeed-app-warehouse-"));
    const day = (date: string) => ({
      table: "model_prices",
      key: [...WAREHOUSE_TABLES.model_prices.key],
      rows: [{ date, provider: "openai", model_id: "gpt-x", input_per_1m: 1, output_per_1m: 2, context_window: 128000, source: "curated", source_url: "https://example.test/pricing", observed_at: `${date}T00:00:00Z` }],
    });
    await writeWarehouse(dir, "2026-01-01", [day("2026-01-01")]);
    const warehouse = await openWarehouseReader({ dirs: [dir] });
    const route = defineRoute({
      method: "GET",
      path: "/api/w",
      tier: "free",
      summary: "w",
      tags: [],
      response: z.object({ days: z.number() }),
      render: async (ctx) => ({ days: Number((await ctx.warehouse!.query<{ n: number }>("SELECT count(DISTINCT date) AS n FROM model_prices"))[0]!.n) }),
    });
    const built = createApp({ routes: [route], snapshots: fakeSnapshots({}), baseUrl: "http://x.test", rateLimitPerMinute: 0, trustProxy: null, warehouse });
    // The Node fast path answers cached bodies before the app, as api/server.ts wires it.
    const server = createServer((req, res) => {
      if (built.serveCached(req, res) !== true) res.writeHead(599).end();
    });
    await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
    const fast = async () => {
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/api/w`);
      return res.status === 200 ? await res.json() : res.status;
    };
    try {
      expect(await (await built.app.request("/api/w")).json()).toEqual({ days: 1 });
      expect(await fast()).toEqual({ days: 1 });
      await writeWarehouse(dir, "2026-01-02", [day("2026-01-02")]);
      expect(await warehouse.refresh()).toBe(true);
      expect(await fast()).toBe(599); // the cached answer is no longer valid
      expect(await (await built.app.request("/api/w")).json()).toEqual({ days: 2 });
      expect(await fast()).toEqual({ days: 2 });
    } finally {
      server.close();
      built.dispose();
      warehouse.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe("rejections on the Node fast path", () => {
  /** The app behind Node's server as server.ts wires it: the fast path first, then the guard and the h3 app. */
  async function nodeServer(built: ReturnType<typeof build>) {
    const answeredBy: ("fast" | "app")[] = [];
    const appHandler = toNodeHandler(built.app);
    const toApp = (req: IncomingMessage, res: ServerResponse) => {
      answeredBy.push("app");
      if (!guardRequest(req, res, 1024)) void appHandler(req, res);
    };
    const server = createServer((req, res) => {
      const served = built.serveCached(req, res);
      if (served === true) answeredBy.push("fast");
      else if (served === false) toApp(req, res);
      else void served.then((done) => (done ? answeredBy.push("fast") : toApp(req, res)));
    });
    await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return {
      answeredBy,
      fetch: (path: string, init?: RequestInit) => fetch(base + path, init),
      close: () => new Promise((ok) => server.close(ok)),
    };
  }

  /** Run `test` against `built` behind Node's server, then close both, whatever happens. */
  async function withNode(built: ReturnType<typeof build>, test: (node: Awaited<ReturnType<typeof nodeServer>>) => Promise<void>) {
    const node = await nodeServer(built);
    try {
      await test(node);
    } finally {
      await node.close();
      built.dispose();
    }
  }

  /** `/api/gpu/:name`: 400 for a bad query, 404 for a name the data lacks, 503 without data, 500 on a crash. */
  function gpuRoute() {
    return defineRoute({
      method: "GET",
      path: "/api/gpu/:name",
      tier: "free",
      summary: "gpu",
      tags: [],
      params: z.object({ name: z.string() }),
      query: z.object({ limit: z.coerce.number().int().min(1).max(10).default(5) }),
      response: z.object({ name: z.string(), price: z.number() }),
      render: (ctx, { params }) => {
        const prices = ctx.snapshots.get<Record<string, number> | null>("gpus")?.data;
        if (params.name === "crash") throw new Error("render crashed");
        if (prices === null) throw new ApiError(503, "snapshot_unavailable", "no gpu prices yet");
        const price = prices?.[params.name];
        if (price === undefined) throw new ApiError(404, "unknown_gpu", `no gpu named ${params.name}`);
        return { name: params.name, price };
      },
    });
  }

  /** Headers a client sees, without the connection's own and the per-request rate-limit ones. */
  const headersOf = (res: Response) =>
    Object.fromEntries([...res.headers].filter(([name]) => !["date", "connection", "keep-alive"].includes(name) && !name.startsWith("ratelimit-")));

  it("tells agent activity of answers on both paths, with the client address behind TRUST_PROXY resolved on demand", async () => {
    const route = defineRoute({ method: "GET", path: "/api/x", tier: "free", summary: "x", tags: [], response: z.object({ n: z.number() }), render: () => ({ n: 1 }) });
    const told: { userAgent: string | null; template: string; address: () => string }[] = [];
    const built = createApp({
      routes: [route],
      snapshots: fakeSnapshots({}),
      baseUrl: "http://x.test",
      rateLimitPerMinute: 0,
      trustProxy: "loopback",
      onAnswered: (answered) => told.push(answered),
    });
    await withNode(built, async (node) => {
      const headers = { "user-agent": "GPTBot/1.2", "x-forwarded-for": "192.0.2.9" };
      expect((await node.fetch("/api/x", { headers })).status).toBe(200);
      expect((await node.fetch("/api/x", { headers })).status).toBe(200);
      expect(node.answeredBy).toEqual(["app", "fast"]);
      expect(told.map((t) => [t.userAgent, t.template, t.address()])).toEqual([
        ["GPTBot/1.2", "/api/x", "192.0.2.9"],
        ["GPTBot/1.2", "/api/x", "192.0.2.9"],
      ]);
    });
  });

  it("answers a bad URL seen once from the fast path, with the app's status, headers and body, HEAD without a body", async () => {
    const built = build([gpuRoute()], fakeSnapshots({ gpus: { H100: 2 } }));
    await withNode(built, async (node) => {
      for (const path of ["/api/gpu/H100?limit=50", "/api/gpu/B300"]) {
        const first = await node.fetch(path);
        const again = await node.fetch(path);
        const head = await node.fetch(path, { method: "HEAD" });
        expect(node.answeredBy.splice(0), path).toEqual(["app", "fast", "fast"]);
        expect([first.status, again.status, head.status], path).toEqual(first.status === 400 ? [400, 400, 400] : [404, 404, 404]);
        expect(headersOf(again), path).toEqual(headersOf(first));
        expect(headersOf(head), path).toEqual(headersOf(first));
        expect(await again.text(), path).toBe(await first.text());
        expect((await head.arrayBuffer()).byteLength, path).toBe(0);
      }
      expect(await (await node.fetch("/api/gpu/B300")).json()).toMatchObject({ ok: false, error: "unknown_gpu" });
    });
  });

  it("keeps no 5xx, forgets an answer the data decided when the data changes, and never lets junk URLs evict real answers", async () => {
    const data: { gpus: Record<string, number> | null } = { gpus: { H100: 2 } };
    const snapshots = fakeSnapshots(data);
    const built = build([gpuRoute()], snapshots);
    await withNode(built, async (node) => {
      const statusOf = async (path: string) => {
        const res = await node.fetch(path);
        await res.arrayBuffer();
        return `${res.status} ${node.answeredBy.at(-1)}`;
      };
      expect([await statusOf("/api/gpu/B300"), await statusOf("/api/gpu/B300")]).toEqual(["404 app", "404 fast"]);
      data.gpus = { H100: 2, B300: 6 };
      snapshots.bump();
      expect(await statusOf("/api/gpu/B300")).toBe("200 app");

      data.gpus = null;
      snapshots.bump();
      expect([await statusOf("/api/gpu/A100"), await statusOf("/api/gpu/A100")]).toEqual(["503 app", "503 app"]);
      expect([await statusOf("/api/gpu/crash"), await statusOf("/api/gpu/crash")]).toEqual(["500 app", "500 app"]);

      data.gpus = { H100: 2 };
      snapshots.bump();
      expect(await statusOf("/api/gpu/H100")).toBe("200 app");
      for (let i = 0; i < 600; i++) expect(await statusOf(`/api/gpu/H100?limit=${100 + i}`)).toBe("400 app");
      expect(await statusOf("/api/gpu/H100")).toBe("200 fast");
      expect(await statusOf("/api/gpu/H100?limit=699")).toBe("400 fast");
      expect(await statusOf("/api/gpu/H100?limit=100")).toBe("400 app"); // the oldest junk went first
    });
  });

  it("keeps the 404 of a path no route serves, from a GET only, outside the per-IP limit as on the app's path", async () => {
    const built = build([gpuRoute()], fakeSnapshots({ gpus: { H100: 2 } }), 2);
    await withNode(built, async (node) => {
      const answer = async (path: string, method = "GET") => {
        const res = await node.fetch(path, { method });
        return `${res.status} ${node.answeredBy.at(-1)} ${(await res.text()).length > 0 ? "body" : "empty"}`;
      };
      expect(await answer("/api/nope?x=1", "HEAD")).toBe("404 app empty");
      expect(await answer("/api/nope?x=1", "POST")).toBe("404 app body");
      expect(await answer("/api/nope?x=1")).toBe("404 app body");
      const [first, again] = [await node.fetch("/api/elsewhere"), await node.fetch("/api/elsewhere")];
      expect(headersOf(again)).toEqual(headersOf(first));
      expect(await again.json()).toEqual(await first.json());
      expect(await answer("/api/nope?x=1", "HEAD")).toBe("404 fast empty");
      expect([await answer("/api/nope?x=1"), await answer("/api/nope?x=1"), await answer("/api/nope?x=1")]).toEqual(Array(3).fill("404 fast body"));
      expect(await answer("/api/nope?x=2")).toBe("404 app body");
    });
  });

  it("counts a kept rejection against the per-IP limit and sends its rate-limit headers", async () => {
    const built = build([gpuRoute()], fakeSnapshots({ gpus: { H100: 2 } }), 3);
    await withNode(built, async (node) => {
      const answers: Response[] = [];
      for (let i = 0; i < 4; i++) answers.push(await node.fetch("/api/gpu/B300"));
      expect(node.answeredBy).toEqual(["app", "fast", "fast", "fast"]);
      expect(answers.map((a) => a.status)).toEqual([404, 404, 404, 429]);
      expect(answers.map((a) => a.headers.get("ratelimit-remaining"))).toEqual(["2", "1", "0", "0"]);
      expect(await answers[3]!.json()).toMatchObject({ ok: false, error: "rate_limited" });
    });
  });
});
