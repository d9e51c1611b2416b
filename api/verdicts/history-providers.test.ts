import { describe, expect, it } from "vitest";
import { providerHistory, type ProbeDay, type StatusDay } from "./history-providers.ts";

const range = { from: "2026-01-01", to: "2026-01-03", days: 3 };
const probe = (date: string, count: number, ok: number): ProbeDay => ({
  date, count, ok_count: ok, ttfb_p50: 10.04, ttfb_p95: 20, ttfb_p99: 30, total_p50: 40, total_p95: 50, total_p99: null,
});
const status = (date: string, samples: number, known: number, up: number, incident_seconds: number): StatusDay => ({ date, samples, known, up, incident_seconds });

describe("providerHistory()", () => {
  it("null figures on days without samples, and each kind's figures null when only the other kind exists", () => {
    const h = providerHistory({ provider: "p", range, probes: [probe("2026-01-01", 4, 3)], statuses: [status("2026-01-02", 10, 8, 6, 5400)] });
    expect(h.points[0]).toMatchObject({ has_data: true, count: 4, ok_pct: 75, ttfb_p50: 10, total_p99: null, uptime_pct: null, incident_hours: null, status_samples: null });
    expect(h.points[1]).toMatchObject({ has_data: true, count: null, ok_pct: null, ttfb_p50: null, uptime_pct: 75, incident_hours: 1.5, status_samples: 10 });
    expect(h.points[2]).toEqual({
      date: "2026-01-03", has_data: false, count: null, ok_pct: null, uptime_pct: null, ttfb_p50: null, ttfb_p95: null, ttfb_p99: null,
      total_p50: null, total_p95: null, total_p99: null, incident_hours: null, status_samples: null,
    });
    expect(h.summary).toEqual({ overall_uptime_pct: 75, overall_ok_pct: 75, days_with_data: 2, days_with_incidents: 1, days_missing: 1 });
    expect(h.notes.join("\n")).toMatch(/1 day\(s\) without any sample/);
    expect(h.notes.join("\n")).toMatch(/probe samples but no status sample/);
    expect(h.notes.join("\n")).toMatch(/status samples but no probe sample/);
  });

  it("overall uptime weighs every status sample, not every day; a day of only unknown status has null uptime", () => {
    const h = providerHistory({ provider: "p", range, probes: [], statuses: [status("2026-01-01", 100, 100, 100, 0), status("2026-01-02", 10, 10, 0, 36000), status("2026-01-03", 5, 0, 0, 0)] });
    expect(h.points.map((p) => p.uptime_pct)).toEqual([100, 0, null]);
    expect(h.summary.overall_uptime_pct).toBe(90.91);
    expect(h.summary.overall_ok_pct).toBeNull();
    expect(h.summary.days_with_incidents).toBe(1);
  });

  it("no data at all: every point has_data false", () => {
    const h = providerHistory({ provider: "p", range, probes: [], statuses: [] });
    expect(h.summary).toMatchObject({ days_with_data: 0, days_missing: 3, overall_uptime_pct: null });
    expect(h.notes[0]).toMatch(/no probe or status sample of p/);
  });
});
