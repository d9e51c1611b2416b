import { afterAll, describe, expect, it } from "vitest";
import { type ClosableHttpClient, createHttpClient } from "../http/client.ts";
import { type TestServer, startTestServer } from "../http/test-server.ts";
import type { HttpClient, TimedResponse } from "../types.ts";
import { ProbeClientError, runProbes } from "./prober.ts";
import { isUp, toSample } from "./sample.ts";

const clients: ClosableHttpClient[] = [];
const servers: TestServer[] = [];
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await Promise.all(servers.map((s) => s.close()));
});

function fakeHttp(answer: (url: string, call: number) => TimedResponse, log: string[] = []): HttpClient {
  let calls = 0;
  return {
    getText: () => Promise.reject(new Error("not used")),
    getJson: () => Promise.reject(new Error("not used")),
    timed: async (url) => {
      log.push(url);
      return answer(url, calls++);
    },
  };
}

const answer = (over: Partial<TimedResponse> = {}): TimedResponse => ({ url: "u", status: 401, ttfbMs: 80, totalMs: 95, bytes: 40, ok: true, ...over });

describe("runProbes", () => {
  it("runProbes() takes N samples per target with real delays, in order, through timed()", async () => {
    const s = await startTestServer((req, res) => {
      setTimeout(() => {
        res.writeHead(req.url === "/down" ? 502 : 401, { "content-type": "application/json" });
        res.flushHeaders();
        setTimeout(() => res.end("{}"), 100);
      }, 50);
    });
    servers.push(s);
    const http = createHttpClient({ cacheDir: false });
    clients.push(http);
    const targets = [
      { provider: "alpha", url: s.url("/up"), method: "GET" as const },
      { provider: "beta", url: s.url("/down"), method: "GET" as const },
    ];
    const started = performance.now();
    const out = await runProbes(http, targets, { samplesPerTarget: 3, clock: () => Date.now() });
    const wall = performance.now() - started;
    expect(out.map((o) => o.target.provider)).toEqual(["alpha", "beta"]);
    for (const { samples } of out) {
      expect(samples).toHaveLength(3);
      for (const [i, sample] of samples.entries()) {
        expect(sample.ttfb_ms!).toBeGreaterThanOrEqual(45);
        expect(sample.total_ms).toBeGreaterThanOrEqual(145);
        // The first request of a fresh client also pays undici's setup, which can blur the split.
        if (i > 0) expect(sample.total_ms).toBeGreaterThanOrEqual(sample.ttfb_ms! + 90);
      }
      const times = samples.map((x) => Date.parse(x.ts));
      expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(140);
      expect(times[2]! - times[1]!).toBeGreaterThanOrEqual(140);
    }
    expect(out[0]?.samples.every((x) => x.ok && x.status === 401 && x.error === undefined)).toBe(true);
    expect(out[1]?.samples.every((x) => !x.ok && x.status === 502 && x.error === "http_status")).toBe(true);
    // Samples of a target are sequential, targets run side by side: about 3 × 150 ms, not 6 × 150 ms.
    expect(wall).toBeGreaterThanOrEqual(430);
    expect(wall).toBeLessThan(850);
    expect(s.requests).toHaveLength(6);
  });

  it("runProbes() gives samples of one target unique, increasing timestamps even with a frozen clock", async () => {
    const log: string[] = [];
    const out = await runProbes(fakeHttp(() => answer(), log), [{ provider: "a", url: "https://a.test/", method: "GET" }], {
      samplesPerTarget: 4,
      clock: () => Date.parse("2026-11-22T10:00:00.000Z"),
    });
    expect(out[0]?.samples.map((s) => s.ts)).toEqual([
      "2026-11-22T10:00:00.000Z",
      "2026-11-22T10:00:00.001Z",
      "2026-11-22T10:00:00.002Z",
      "2026-11-22T10:00:00.003Z",
    ]);
    expect(log).toEqual(Array(4).fill("https://a.test/"));
  });

  it("runProbes() records a refused connection as a down sample without rejecting", async () => {
    const http = fakeHttp(() => answer({ status: null, ttfbMs: null, totalMs: 3, bytes: 0, ok: false, error: "network" }));
    const out = await runProbes(http, [{ provider: "a", url: "https://a.test/", method: "GET" }], { samplesPerTarget: 1, clock: () => 0 });
    expect(out[0]?.samples[0]).toEqual({ ts: "1970-01-01T00:00:00.000Z", status: null, ok: false, ttfb_ms: null, total_ms: 3, error: "network" });
  });

  it("runProbes() refuses a client without timed() and a bad sample count", async () => {
    const bare: HttpClient = { getText: () => Promise.reject(new Error("x")), getJson: () => Promise.reject(new Error("x")) };
    await expect(runProbes(bare, [], { clock: () => 0 })).rejects.toBeInstanceOf(ProbeClientError);
    await expect(runProbes(fakeHttp(() => answer()), [], { clock: () => 0, samplesPerTarget: 0 })).rejects.toThrow(/got 0/);
  });
});

describe("sample", () => {
  it("isUp() counts any answer below 500 read to its end", () => {
    expect(isUp({ ok: true, status: 200 })).toBe(true);
    expect(isUp({ ok: true, status: 401 })).toBe(true);
    expect(isUp({ ok: true, status: 499 })).toBe(true);
    expect(isUp({ ok: true, status: 500 })).toBe(false);
    expect(isUp({ ok: false, status: 200 })).toBe(false);
    expect(isUp({ ok: false, status: null })).toBe(false);
  });

  it("toSample() keeps the client's error code and names a 5xx http_status", () => {
    expect(toSample(answer({ status: 503 }), "2026-01-01T00:00:00.000Z")).toMatchObject({ ok: false, error: "http_status", status: 503 });
    expect(toSample(answer({ ok: false, error: "timeout", status: 200 }), "2026-01-01T00:00:00.000Z")).toMatchObject({ ok: false, error: "timeout" });
    expect(toSample(answer(), "2026-01-01T00:00:00.000Z")).toEqual({ ts: "2026-01-01T00:00:00.000Z", status: 401, ok: true, ttfb_ms: 80, total_ms: 95 });
  });
});
