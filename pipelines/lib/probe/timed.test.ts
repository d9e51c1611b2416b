/** The shared client's timed() (pipelines/lib/http/client.ts), against local servers with known delays. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type ClosableHttpClient, DEFAULT_USER_AGENT, createHttpClient } from "../http/client.ts";
import { type TestServer, startTestServer } from "../http/test-server.ts";
import { replayPathFor } from "../replay-path.ts";

const clients: ClosableHttpClient[] = [];
const servers: TestServer[] = [];
const temps: string[] = [];

function client(options: Parameters<typeof createHttpClient>[0] = {}): ClosableHttpClient {
  const c = createHttpClient({ cacheDir: false, retries: 2, sleep: async () => {}, ...options });
  clients.push(c);
  return c;
}

async function server(handler: TestServer["handler"]): Promise<TestServer> {
  const s = await startTestServer(handler);
  servers.push(s);
  return s;
}

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await Promise.all(servers.map((s) => s.close()));
  for (const t of temps) rmSync(t, { recursive: true, force: true });
});

describe("timed", () => {
  it("timed() measures time to headers and to the end of the body", async () => {
    const s = await server((req, res) => {
      if (req.url === "/warm") return void res.end("warm");
      setTimeout(() => {
        res.writeHead(200, { "content-type": "text/plain" });
        res.write("first part;");
        res.flushHeaders();
        setTimeout(() => res.end("second part"), 100);
      }, 50);
    });
    const c = client();
    await c.timed!(s.url("/warm")); // undici's first-request setup is not what this test measures
    const r = await c.timed!(s.url("/slow"));
    expect(r).toMatchObject({ url: s.url("/slow"), status: 200, ok: true, bytes: "first part;second part".length });
    expect(r.error).toBeUndefined();
    expect(r.ttfbMs).not.toBeNull();
    expect(r.ttfbMs!).toBeGreaterThanOrEqual(45);
    expect(r.ttfbMs!).toBeLessThan(2_000);
    expect(r.totalMs).toBeGreaterThanOrEqual(145);
    // lower bounds only: a loaded machine may see the headers late, never early
    expect(r.totalMs).toBeGreaterThan(r.ttfbMs!);
    expect(r.totalMs).toBeLessThan(5_000);
  });

  it("timed() counts a 401 as a read answer and sends the User-Agent and extra headers", async () => {
    const s = await server((_req, res) => {
      res.writeHead(401, { "content-type": "application/json" });
      res.end('{"error":{"message":"missing key"}}');
    });
    const r = await client().timed!(s.url("/v1/models"), { headers: { Accept: "application/json" } });
    expect(r).toMatchObject({ status: 401, ok: true, bytes: 35 });
    expect(s.requests[0]?.headers["user-agent"]).toBe(DEFAULT_USER_AGENT);
    expect(s.requests[0]?.headers["accept"]).toBe("application/json");
    expect(s.requests[0]?.headers["if-none-match"]).toBeUndefined();
  });

  it("timed() never retries: a 503 is one request and one answer", async () => {
    const s = await server((_req, res) => {
      res.writeHead(503, { "retry-after": "1" });
      res.end("busy");
    });
    const r = await client({ retries: 3 }).timed!(s.url("/busy"));
    expect(r).toMatchObject({ status: 503, ok: true, bytes: 4 });
    expect(s.requests).toHaveLength(1);
  });

  it("timed() does not follow a redirect: the 3xx is the answer timed", async () => {
    const s = await server((_req, res) => {
      res.writeHead(302, { location: "/elsewhere" });
      res.end();
    });
    const r = await client().timed!(s.url("/moved"));
    expect(r.status).toBe(302);
    expect(s.requests).toHaveLength(1);
  });

  it("timed() returns ok false with error network when the connection is refused", async () => {
    const probe = createServer();
    await new Promise<void>((ok) => probe.listen(0, "127.0.0.1", () => ok()));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((ok) => probe.close(() => ok()));
    const r = await client().timed!(`http://127.0.0.1:${port}/v1/models`);
    expect(r).toMatchObject({ status: null, ttfbMs: null, ok: false, error: "network", bytes: 0 });
    expect(r.totalMs).toBeGreaterThanOrEqual(0);
  });

  it("timed() returns error timeout when headers do not come in time", async () => {
    const s = await server(() => undefined);
    const r = await client().timed!(s.url("/hang"), { timeoutMs: 80 });
    expect(r).toMatchObject({ status: null, ttfbMs: null, ok: false, error: "timeout" });
    expect(r.totalMs).toBeGreaterThanOrEqual(70);
  });

  it("timed() returns error timeout with the status when the body stalls", async () => {
    const s = await server((_req, res) => {
      res.writeHead(200, { "content-type": "text/plain" });
      res.write("partial");
    });
    const r = await client().timed!(s.url("/stall"), { timeoutMs: 150 });
    expect(r).toMatchObject({ status: 200, ok: false, error: "timeout" });
    expect(r.ttfbMs).not.toBeNull();
    expect(r.totalMs).toBeGreaterThanOrEqual(140);
  });

  it("timed() stops at the size cap with error too_large", async () => {
    const s = await server((_req, res) => {
      res.writeHead(200, { "content-type": "text/plain" });
      res.end("x".repeat(5_000));
    });
    const r = await client().timed!(s.url("/big"), { maxBytes: 1_000 });
    expect(r).toMatchObject({ status: 200, ok: false, error: "too_large" });
    expect(r.bytes).toBeGreaterThan(1_000);
  });

  it("timed() answers a URL that is not http(s) with error network, without throwing", async () => {
    await expect(client().timed!("ftp://example.com/x")).resolves.toMatchObject({ ok: false, error: "network", status: null });
    await expect(client().timed!("not a url")).resolves.toMatchObject({ ok: false, error: "network" });
  });

  it("timed() in replay answers from the recorded fixture and its status sidecar", async () => {
    const dir = mkdtempSync(join(tmpdir(), "timed-replay-"));
    temps.push(dir);
    const url = "https://api.example.test/v1/models";
    const file = join(dir, replayPathFor(url));
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, '{"error":"unauthorized"}');
    writeFileSync(`${file}.meta.json`, JSON.stringify({ status: 401, headers: { "content-type": "application/json" } }));
    const c = client({ replayDir: dir });
    const r = await c.timed!(url);
    expect(r).toMatchObject({ url, status: 401, ok: true, bytes: 24 });
    const missing = await c.timed!("https://api.example.test/v1/none");
    expect(missing).toMatchObject({ ok: false, error: "replay_missing", status: null });
  });

  it("timed() queues behind the host's concurrency limit without counting the wait", async () => {
    const s = await server((_req, res) => {
      setTimeout(() => res.end("ok"), 60);
    });
    const c = client({ perHostConcurrency: 1 });
    const started = performance.now();
    const [a, b] = await Promise.all([c.timed!(s.url("/a")), c.timed!(s.url("/b"))]);
    const wall = performance.now() - started;
    expect(wall).toBeGreaterThanOrEqual(110);
    expect(a.totalMs).toBeLessThan(wall - 40);
    expect(b.totalMs).toBeLessThan(wall - 40);
  });
});
