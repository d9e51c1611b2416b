import { describe, expect, it } from "vitest";
import type { ProbeSample } from "./sample.ts";
import { summarizeSamples, trimWindow } from "./window.ts";

const NOW = new Date("2026-11-22T12:00:00.000Z");
const at = (iso: string, over: Partial<ProbeSample> = {}): ProbeSample => ({ ts: iso, status: 401, ok: true, ttfb_ms: 100, total_ms: 120, ...over });

describe("trimWindow", () => {
  it("trimWindow() drops samples older than 24 hours and keeps the boundary", () => {
    const kept = trimWindow(
      [
        at("2026-11-21T11:59:59.999Z"),
        at("2026-11-21T12:00:00.000Z"),
        at("2026-11-22T11:45:00.000Z"),
        at("2026-11-20T08:00:00.000Z"),
      ],
      NOW,
    );
    expect(kept.map((s) => s.ts)).toEqual(["2026-11-21T12:00:00.000Z", "2026-11-22T11:45:00.000Z"]);
  });

  it("trimWindow() sorts by time and lets a later duplicate timestamp win", () => {
    const kept = trimWindow([at("2026-11-22T11:30:00.000Z", { total_ms: 1 }), at("2026-11-22T10:00:00.000Z"), at("2026-11-22T11:30:00.000Z", { total_ms: 2 })], NOW);
    expect(kept.map((s) => [s.ts, s.total_ms])).toEqual([
      ["2026-11-22T10:00:00.000Z", 120],
      ["2026-11-22T11:30:00.000Z", 2],
    ]);
  });

  it("trimWindow() honours another window length and skips unreadable times", () => {
    const kept = trimWindow([at("2026-11-22T10:59:00.000Z"), at("2026-11-22T11:01:00.000Z"), at("yesterday")], NOW, 1);
    expect(kept.map((s) => s.ts)).toEqual(["2026-11-22T11:01:00.000Z"]);
  });
});

describe("summarizeSamples", () => {
  it("summarizeSamples() computes up share and percentiles over up samples only", () => {
    const samples = [
      ...Array.from({ length: 18 }, (_, i) => at(`2026-11-22T1${i % 2}:0${i % 6}:00.000Z`.replace("1:", "1:"), { ttfb_ms: 10 * (i + 1), total_ms: 10 * (i + 1) + 5 })),
      at("2026-11-22T11:50:00.000Z", { ok: false, status: 503, error: "http_status", ttfb_ms: 9_000, total_ms: 9_999 }),
      at("2026-11-22T11:55:00.000Z", { ok: false, status: null, error: "timeout", ttfb_ms: null, total_ms: 15_000 }),
    ];
    const s = summarizeSamples(samples);
    expect(s).toEqual({
      samples: 20,
      up: 18,
      ok_pct: 90,
      ttfb_p50: 90,
      ttfb_p95: 180,
      total_p50: 95,
      total_p95: 185,
      total_p99: 185,
      last_sample_at: "2026-11-22T11:55:00.000Z",
    });
  });

  it("summarizeSamples() rounds the up share to one decimal", () => {
    const s = summarizeSamples([at("2026-11-22T11:00:00.000Z"), at("2026-11-22T11:01:00.000Z"), at("2026-11-22T11:02:00.000Z", { ok: false, error: "network", status: null, ttfb_ms: null })]);
    expect(s.ok_pct).toBe(66.7);
    expect(s.up).toBe(2);
  });

  it("summarizeSamples() gives nulls when nothing was up or nothing was sampled", () => {
    const down = summarizeSamples([at("2026-11-22T11:00:00.000Z", { ok: false, status: null, ttfb_ms: null, error: "network" })]);
    expect(down).toMatchObject({ samples: 1, up: 0, ok_pct: 0, ttfb_p50: null, total_p99: null, last_sample_at: "2026-11-22T11:00:00.000Z" });
    expect(summarizeSamples([])).toEqual({ samples: 0, up: 0, ok_pct: null, ttfb_p50: null, ttfb_p95: null, total_p50: null, total_p95: null, total_p99: null, last_sample_at: null });
  });
});
