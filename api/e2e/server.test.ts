import { readFile, writeFile } from "node:fs/promises";
import { request as httpRequest } from "node:http";
import { join } from "node:path";
import { gunzipSync, brotliDecompressSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { routes } from "../registry/index.ts";
import { startServer, type RunningServer } from "../server.ts";
import { examplePath, FIXTURE_TYPES, READS_UPSTREAM_AT_REQUEST, standardFixture } from "./helpers.ts";
import { newsBody, STATUS_BODY, type SnapshotFixture } from "./snapshot-fixture.ts";
// Every answer is checked against the OpenAPI document (operation, status, headers, body).
import { contractFetch as fetch } from "../testing/openapi-contract.ts";

let fx: SnapshotFixture;
let server: RunningServer;

beforeAll(async () => {
  fx = await standardFixture();
  server = await startServer({ state: false, port: 0, host: "127.0.0.1", snapshotsDir: fx.dir, rateLimitPerMinute: 0, trustProxy: null, pollMs: 100, onWarn: () => {} });
});
afterAll(async () => {
  await server?.close();
  await fx?.remove();
});

const get = (path: string, headers: Record<string, string> = {}) => fetch(server.url + path, { headers });

describe("startServer() serves every registered route", () => {
  const served = routes.filter((r) => r.method === "GET" && (r.tier === "free" || r.tier === "discovery"));

  it("registry has the discovery and history routes", () => {
    const paths = served.map((r) => r.path);
    for (const p of ["/api/meta", "/openapi.json", "/llms.txt", "/api/health", "/api/history", "/api/history/:date/:type"]) {
      expect(paths).toContain(p);
    }
  });

  for (const route of served) {
    it(`GET ${route.path} answers 200 with a body its response schema accepts, or 503 when its snapshot is absent`, async () => {
      const res = await get(examplePath(route));
      const needsAbsent = (route.snapshots ?? []).some((t) => !FIXTURE_TYPES.includes(t));
      if (needsAbsent) {
        expect(res.status).toBe(503);
        expect(await res.json()).toMatchObject({ ok: false, error: "snapshot_unavailable" });
        return;
      }
      if (READS_UPSTREAM_AT_REQUEST.has(route.path)) {
        // The fixture holds no copy and the upstream is a closed port in tests: the honest answer is a 503.
        expect(res.status).toBe(503);
        expect(await res.json()).toMatchObject({ ok: false, error: "upstream_unavailable" });
        return;
      }
      expect(res.status).toBe(200);
      const type = res.headers.get("content-type") ?? "";
      expect(type).toContain((route.contentType ?? "application/json").split(";")[0]);
      if (type.includes("json")) {
        const body: unknown = await res.json();
        const parsed = route.response.safeParse(body);
        expect(parsed.success, parsed.success ? "" : JSON.stringify(parsed.error.issues.slice(0, 3))).toBe(true);
      } else {
        expect((await res.text()).length).toBeGreaterThan(0);
      }
    });
  }
});

describe("discovery documents", () => {
  it("/api/meta lists every registered route with freshness from the manifest", async () => {
    const body = (await (await get("/api/meta")).json()) as {
      api: { version: string; openapi: string; endpoints: { method: string; path: string; params: { name: string }[] }[] };
    };
    expect(body.api.version).toBe("1.0.0");
    expect(body.api.openapi).toBe(`${server.config.publicBaseUrl}/openapi.json`);
    expect(body.api.endpoints.map((e) => `${e.method} ${e.path}`)).toEqual(routes.map((r) => `${r.method} ${r.path}`));
    const dated = body.api.endpoints.find((e) => e.path === "/api/history/:date/:type");
    expect(dated?.params.map((p) => p.name).sort()).toEqual(["date", "type"]);
  });

  it("/openapi.json is OpenAPI 3.1.0 with every route and the public server URL", async () => {
    const doc = (await (await get("/openapi.json")).json()) as {
      openapi: string;
      info: { version: string };
      servers: { url: string }[];
      paths: Record<string, Record<string, { parameters?: { name: string; in: string }[] }>>;
    };
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info.version).toBe("1.0.0");
    expect(doc.servers[0]?.url).toBe(server.config.publicBaseUrl);
    for (const r of routes) {
      const key = r.path.replace(/:(\w+)/g, "{$1}");
      expect(doc.paths[key]?.[r.method.toLowerCase()], `${r.method} ${key}`).toBeDefined();
    }
    const params = doc.paths["/api/history/{date}/{type}"]?.get?.parameters ?? [];
    expect(params.filter((p) => p.in === "path").map((p) => p.name).sort()).toEqual(["date", "type"]);
  });

  it("/llms.txt follows the llmstxt.org layout with links built from the registry", async () => {
    const text = await (await get("/llms.txt")).text();
    expect(text.startsWith("# agentfeed\n\n> ")).toBe(true);
    expect(text).toContain("## Optional");
    expect(text).toContain(`- [GET /api/meta](${server.config.publicBaseUrl}/api/meta): `);
    expect(text).toContain(`(${server.config.publicBaseUrl}/api/history/{date}/{type})`);
  });

  it("/api/health reports counts per type and marks absent types unavailable", async () => {
    const body = (await (await get("/api/health")).json()) as Record<string, { rows?: number; available?: boolean }>;
    expect(body.news).toMatchObject({ available: true, rows: 40 });
    expect(body.status).toMatchObject({ available: true, rows: 2 });
    expect(body.models).toMatchObject({ available: false, rows: 0 });
  });
});

describe("static-first responses", () => {
  it("answers 304 to a matching If-None-Match and 200 to a stale one", async () => {
    const first = await get("/api/history");
    const etag = first.headers.get("etag");
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(first.headers.get("cache-control")).toBe("public, max-age=60");
    const again = await get("/api/history", { "if-none-match": etag! });
    expect(again.status).toBe(304);
    expect(again.headers.get("etag")).toBe(etag);
    expect(await again.text()).toBe("");
    const other = await get("/api/history", { "if-none-match": '"something-else"' });
    expect(other.status).toBe(200);
  });

  it("sends gzip and brotli copies that decode to the identity bytes", async () => {
    const plain = Buffer.from(await (await get("/api/meta", { "accept-encoding": "identity" })).arrayBuffer());
    // fetch decodes transparently, so read the raw bytes through node:http.
    const raw = async (encoding: string) => {
      const { request } = await import("node:http");
      return new Promise<{ headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
        const req = request(server.url + "/api/meta", { headers: { "accept-encoding": encoding } }, (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
        });
        req.on("error", reject);
        req.end();
      });
    };
    const gz = await raw("gzip");
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gz.body).equals(plain)).toBe(true);
    const br = await raw("gzip, deflate, br");
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.headers.vary).toBe("Accept-Encoding");
    expect(brotliDecompressSync(br.body).equals(plain)).toBe(true);
    expect(br.headers.etag).not.toBe(gz.headers.etag);
  });

  it("picks up a new snapshot when the manifest changes", async () => {
    const before = (await (await get("/api/history")).json()) as { types: Record<string, { to: string }> };
    expect(before.types.status?.to).toBe("2025-01-15");
    await fx.write({ type: "status", dated: { "2025-01-14": STATUS_BODY, "2025-01-15": STATUS_BODY, "2025-01-16": STATUS_BODY } });
    await fx.write({ type: "news", dated: { "2025-01-15": newsBody(40), "2025-01-16": newsBody(41) } });
    // Two manifest writes: the server may reload between them, so wait for the state both leave.
    const served = async () => ({
      statusTo: ((await (await get("/api/history")).json()) as typeof before).types.status?.to,
      newsRows: ((await (await get("/api/health")).json()) as { news: { rows: number } }).news.rows,
    });
    await expect.poll(served, { timeout: 10_000, interval: 100 }).toEqual({ statusTo: "2025-01-16", newsRows: 41 });
  });
});

describe("CORS", () => {
  it("every response carries Access-Control-Allow-Origin and exposes ETag and RateLimit headers", async () => {
    for (const path of ["/api/meta", "/does-not-exist", "/api/history/2025-02-30/status"]) {
      const res = await get(path, { origin: "https://agent.example" });
      expect(res.headers.get("access-control-allow-origin")).toBe("*");
    }
    const exposed = (await get("/api/meta")).headers.get("access-control-expose-headers") ?? "";
    expect(exposed).toContain("ETag");
    expect(exposed).toContain("RateLimit-Remaining");
  });

  it("answers an OPTIONS preflight with 204 and the allowed methods and headers", async () => {
    const res = await fetch(server.url + "/api/history", {
      method: "OPTIONS",
      headers: { origin: "https://agent.example", "access-control-request-method": "GET", "access-control-request-headers": "if-none-match" },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-allow-methods")).toContain("GET");
    expect(res.headers.get("access-control-allow-headers")?.toLowerCase()).toContain("if-none-match");
  });
});

describe("errors are JSON", () => {
  it("unknown path → 404 not_found", async () => {
    const res = await get("/api/nothing-here");
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toContain("application/json");
    expect(await res.json()).toEqual({ ok: false, error: "not_found", message: expect.any(String) });
  });

  it("a kept dated file that cannot be read → 503 snapshot_unavailable, not 404; readable again → 200", async () => {
    const listing = (await (await get("/api/history")).json()) as { types: Record<string, { from: string }> };
    const date = listing.types.status!.from;
    const file = join(fx.dir, "status", `${date}.json`);
    const original = await readFile(file, "utf8");
    await writeFile(file, original.slice(0, 20));
    try {
      const res = await get(`/api/history/${date}/status?truncated=1`);
      expect(res.status).toBe(503);
      expect(await res.json()).toMatchObject({ ok: false, error: "snapshot_unavailable" });
    } finally {
      await writeFile(file, original);
    }
    expect((await get(`/api/history/${date}/status?restored=1`)).status).toBe(200);
  });

  it("wrong method → 405 with Allow", async () => {
    const res = await fetch(server.url + "/api/history", { method: "DELETE" });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toContain("GET");
    expect(await res.json()).toMatchObject({ ok: false, error: "method_not_allowed" });
  });

  it("bad history date → 400 invalid_params with issues", async () => {
    for (const date of ["2025-1-14", "2025-02-30", "yesterday"]) {
      const res = await get(`/api/history/${date}/status`);
      expect(res.status, date).toBe(400);
      const body = (await res.json()) as { ok: boolean; error: string; issues: unknown[] };
      expect(body).toMatchObject({ ok: false, error: "invalid_params" });
      expect(body.issues.length).toBeGreaterThan(0);
    }
  });

  it("answers built per request (errors, a preflight) carry their reason phrase and a Content-Length, not chunks", async () => {
    // Read with node:http, which shows the status line and the framing that fetch hides.
    const raw = (method: string, path: string) =>
      new Promise<{ status?: number; reason?: string; length?: string; chunked: boolean; body: string }>((done, fail) => {
        const req = httpRequest(server.url + path, { method }, (res) => {
          let body = "";
          res.setEncoding("utf8").on("data", (chunk: string) => (body += chunk));
          res.on("end", () =>
            done({ status: res.statusCode, reason: res.statusMessage, length: res.headers["content-length"], chunked: res.headers["transfer-encoding"] === "chunked", body }),
          );
        });
        req.on("error", fail);
        req.end();
      });
    const cases: [string, string, number, string][] = [
      ["GET", "/api/history/yesterday/status", 400, "Bad Request"],
      ["GET", "/api/nothing-here", 404, "Not Found"],
      ["DELETE", "/api/history", 405, "Method Not Allowed"],
      ["OPTIONS", "/api/meta", 204, "No Content"],
    ];
    for (const [method, path, status, reason] of cases) {
      const res = await raw(method, path);
      expect(res.status, path).toBe(status);
      expect(res.reason, path).toBe(reason);
      expect(res.chunked, path).toBe(false);
      if (status !== 204) expect(Number(res.length), path).toBe(Buffer.byteLength(res.body));
    }
  });

  it("history of an unknown type or an absent date → 404 snapshot_not_found", async () => {
    for (const path of ["/api/history/2025-01-14/unicorns", "/api/history/2024-06-01/status", "/api/history/2025-01-14/..%2Fmanifest"]) {
      const res = await get(path);
      expect(res.status, path).toBe(404);
      expect(await res.json()).toMatchObject({ ok: false, error: "snapshot_not_found" });
    }
  });

  it("a dated snapshot answers its body as written", async () => {
    const res = await get("/api/history/2025-01-14/status");
    expect(await res.json()).toEqual({ ok: true, type: "status", date: "2025-01-14", snapshot: STATUS_BODY });
  });
});
