import { afterAll, describe, expect, it } from "vitest";
import { probeTargets, type ProbeTargetEntry } from "../catalog/probe-targets.ts";
import { type ClosableHttpClient, createHttpClient } from "../lib/http/client.ts";
import type { ProbeSample } from "../lib/probe/sample.ts";
import { summarizeSamples } from "../lib/probe/window.ts";
import { testFeedContext } from "../lib/testing/feed-context.ts";
import type { HttpClient, TimedResponse } from "../lib/types.ts";
import { ProbeFeedError, probeFeed, probeSnapshot, runProbe, type ProbeSnapshot } from "./probe.ts";

const NOW = new Date("2026-11-22T12:00:00.000Z");
const clients: ClosableHttpClient[] = [];
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
});

const TARGETS: ProbeTargetEntry[] = [
  { provider: "alpha", name: "Alpha", url: "https://api.alpha.test/v1/models", method: "GET", expect: "401" },
  { provider: "beta", name: "Beta", url: "https://api.beta.test/v1/models", method: "GET", expect: "401" },
];

/** A client whose timed() answers per host from a script; records every call. */
function scripted(answers: Record<string, Partial<TimedResponse>>, calls: string[] = []): HttpClient {
  return {
    getText: () => Promise.reject(new Error("not used")),
    getJson: () => Promise.reject(new Error("not used")),
    timed: async (url) => {
      calls.push(url);
      const over = answers[new URL(url).hostname] ?? {};
      return { url, status: 401, ttfbMs: 120, totalMs: 130, bytes: 60, ok: true, ...over };
    },
  };
}

const sample = (ts: string, over: Partial<ProbeSample> = {}): ProbeSample => ({ ts, status: 401, ok: true, ttfb_ms: 100, total_ms: 110, ...over });

function previousWith(samplesFor: Record<string, ProbeSample[]>, url = (p: string) => `https://api.${p}.test/v1/models`): ProbeSnapshot {
  return {
    window_hours: 24,
    samples_per_run: 3,
    providers: Object.entries(samplesFor).map(([provider, samples]) => ({
      provider,
      name: provider,
      url: url(provider),
      method: "GET" as const,
      summary: summarizeSamples(samples),
      samples,
    })),
  };
}

describe("probeFeed", () => {
  it("probeFeed declares type, 15-minute cron, 45-minute SLA and every target URL", () => {
    expect(probeFeed.type).toBe("probe");
    expect(probeFeed.cron).toBe("*/15 * * * *");
    expect(probeFeed.slaSeconds).toBe(2_700);
    expect(probeFeed.urls()).toEqual(probeTargets.map((t) => t.url));
    expect(probeTargets.length).toBeGreaterThanOrEqual(10);
    for (const id of ["openai", "anthropic", "google", "mistral", "cohere", "groq", "together", "deepseek", "xai", "openrouter", "fireworks", "perplexity"]) {
      expect(probeTargets.map((t) => t.provider)).toContain(id);
    }
  });

  it("run() probes every catalog target against the recorded replay answers", async () => {
    const http = createHttpClient({ replayDir: "pipelines/fixtures" });
    clients.push(http);
    const ctx = testFeedContext({ http, now: NOW });
    const out = await probeFeed.run(ctx);
    expect(() => probeSnapshot.parse(out.data)).not.toThrow();
    expect(out.data.providers.map((p) => p.provider)).toEqual(probeTargets.map((t) => t.provider));
    for (const p of out.data.providers) {
      expect(p.samples).toHaveLength(3);
      expect(p.summary).toMatchObject({ samples: 3, up: 3, ok_pct: 100 });
      expect(p.samples.every((s) => s.status !== null && s.status >= 400 && s.status < 500)).toBe(true);
    }
    const by = Object.fromEntries(out.data.providers.map((p) => [p.provider, p]));
    expect(by["openai"]?.samples[0]?.status).toBe(401);
    expect(by["google"]?.samples[0]?.status).toBe(403);
    expect(out.sources?.every((s) => s.ok)).toBe(true);
    expect(out.rows).toBe(3 * probeTargets.length);
    const batch = out.warehouse?.[0];
    expect(batch?.table).toBe("probe_samples");
    expect(batch?.key).toEqual(["ts", "provider", "url"]);
    expect(batch?.rows).toHaveLength(3 * probeTargets.length);
    const keys = new Set(batch?.rows.map((r) => `${r["ts"]} ${r["provider"]} ${r["url"]}`));
    expect(keys.size).toBe(3 * probeTargets.length);
    expect(batch?.rows.find((r) => r["provider"] === "openai")).toMatchObject({ date: "2026-11-22", url: "https://api.openai.com/v1/models", status: 401, ok: true });
  });

  it("runProbe() appends this run to the previous window and drops samples older than 24 hours", async () => {
    const previous = previousWith({
      alpha: [
        sample("2026-11-21T11:45:00.000Z", { total_ms: 9_000 }),
        sample("2026-11-21T12:15:00.000Z", { ok: false, status: 503, error: "http_status", total_ms: 40 }),
        sample("2026-11-22T11:45:00.000Z", { ttfb_ms: 200, total_ms: 210 }),
      ],
      beta: [sample("2026-11-20T09:00:00.000Z")],
    });
    const ctx = testFeedContext({ http: scripted({}), now: NOW, latest: { probe: previous } });
    let tick = 0;
    const out = await runProbe(ctx, { targets: TARGETS, elapsed: () => (tick += 250) });
    const alpha = out.data.providers.find((p) => p.provider === "alpha")!;
    const times = alpha.samples.map((s) => s.ts);
    expect(times.slice(0, 2)).toEqual(["2026-11-21T12:15:00.000Z", "2026-11-22T11:45:00.000Z"]);
    // This run's samples: ctx.now plus the elapsed clock (shared by both targets, 250 ms a tick), in order.
    const fresh = times.slice(2).map((t) => Date.parse(t) - NOW.getTime());
    expect(fresh).toHaveLength(3);
    expect(fresh.every((ms, i) => ms > 0 && ms % 250 === 0 && ms <= 1_500 && (i === 0 || ms > fresh[i - 1]!))).toBe(true);
    expect(alpha.summary).toMatchObject({ samples: 5, up: 4, ok_pct: 80, total_p50: 130, total_p99: 210, ttfb_p95: 200, last_sample_at: times[4] });
    const beta = out.data.providers.find((p) => p.provider === "beta")!;
    expect(beta.samples).toHaveLength(3);
    expect(out.rows).toBe(8);
    expect(out.warehouse?.[0]?.rows).toHaveLength(6);
  });

  it("runProbe() starts a fresh window when a target's URL changed and drops removed providers", async () => {
    const previous = previousWith(
      { alpha: [sample("2026-11-22T11:45:00.000Z")], gamma: [sample("2026-11-22T11:45:00.000Z")] },
      (p) => `https://old.${p}.test/models`,
    );
    const ctx = testFeedContext({ http: scripted({}), now: NOW, latest: { probe: previous } });
    const out = await runProbe(ctx, { targets: TARGETS, samplesPerTarget: 2 });
    expect(out.data.providers.map((p) => [p.provider, p.samples.length])).toEqual([["alpha", 2], ["beta", 2]]);
    expect(out.data.samples_per_run).toBe(2);
    expect(ctx.notices.some((n) => n.includes("alpha target changed"))).toBe(true);
    expect(ctx.notices.some((n) => n.includes("gamma is no longer in the catalog"))).toBe(true);
  });

  it("runProbe() ignores a previous snapshot that does not match the schema", async () => {
    const ctx = testFeedContext({ http: scripted({}), now: NOW, latest: { probe: { providers: "nope" } } });
    const out = await runProbe(ctx, { targets: TARGETS });
    expect(out.data.providers.every((p) => p.samples.length === 3)).toBe(true);
    expect(ctx.notices.some((n) => n.includes("does not match"))).toBe(true);
  });

  it("runProbe() records a provider that is down and reports it in source health", async () => {
    const http = scripted({ "api.beta.test": { status: null, ttfbMs: null, totalMs: 10_000, bytes: 0, ok: false, error: "timeout" } });
    const ctx = testFeedContext({ http, now: NOW });
    const out = await runProbe(ctx, { targets: TARGETS });
    const beta = out.data.providers.find((p) => p.provider === "beta")!;
    expect(beta.summary).toMatchObject({ samples: 3, up: 0, ok_pct: 0, total_p50: null });
    expect(beta.samples.every((s) => s.error === "timeout")).toBe(true);
    expect(out.sources?.find((s) => s.id === "beta")).toMatchObject({ ok: false, error: "3/3 samples down (timeout)" });
    expect(out.sources?.find((s) => s.id === "alpha")).toMatchObject({ ok: true });
    expect(ctx.notices.some((n) => n.includes("beta was down"))).toBe(true);
    expect(out.warehouse?.[0]?.rows.find((r) => r["provider"] === "beta")).toMatchObject({ ok: false, status: null, ttfb_ms: null });
  });

  it("runProbe() fails when no target answered at all", async () => {
    const down = { status: null, ttfbMs: null, totalMs: 2, bytes: 0, ok: false, error: "network" as const };
    const ctx = testFeedContext({ http: scripted({ "api.alpha.test": down, "api.beta.test": down }), now: NOW });
    await expect(runProbe(ctx, { targets: TARGETS })).rejects.toBeInstanceOf(ProbeFeedError);
  });
});
