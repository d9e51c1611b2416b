import { describe, expect, it } from "vitest";
import { summarizeSamples } from "../../pipelines/lib/probe/window.ts";
import type { LoadedSnapshot, RenderContext, SnapshotMeta, SnapshotReader } from "../registry/types.ts";
import { ProbeLatestResponse, probeRoutes, renderProbeLatest } from "./probe.ts";
import type { ProbeSnapshot } from "../../pipelines/contract/snapshots/probe.ts";

const LAST_SUCCESS = "2026-11-22T12:00:03.512Z";
const samples = [
  { ts: "2026-11-22T11:45:00.120Z", status: 401, ok: true, ttfb_ms: 182.4, total_ms: 183.1 },
  { ts: "2026-11-22T11:45:00.304Z", status: 401, ok: true, ttfb_ms: 61.2, total_ms: 61.9 },
  { ts: "2026-11-22T12:00:00.050Z", status: null, ok: false, ttfb_ms: null, total_ms: 10_000, error: "timeout" as const },
];
const data: ProbeSnapshot = {
  window_hours: 24,
  samples_per_run: 3,
  providers: [{ provider: "openai", name: "OpenAI", url: "https://api.openai.com/v1/models", method: "GET", summary: summarizeSamples(samples), samples }],
};

function meta(over: Partial<SnapshotMeta> = {}): SnapshotMeta {
  return { type: "probe", date: "2026-11-22", lastSuccess: LAST_SUCCESS, lastAttempt: LAST_SUCCESS, lastChanged: LAST_SUCCESS, lastError: null, rows: 3, provenance: "live", slaSeconds: 2_700, cadence: "every 15 minutes", sources: [], ...over };
}

function ctx(snapshot: LoadedSnapshot<unknown> | undefined): RenderContext {
  const reader: SnapshotReader = {
    get: <T,>(type: string) => (type === "probe" ? (snapshot as LoadedSnapshot<T> | undefined) : undefined),
    types: () => (snapshot ? ["probe"] : []),
    dates: () => [],
    dated: async () => undefined,
  };
  return { snapshots: reader, baseUrl: "http://localhost:3000", now: new Date("2026-11-22T12:05:00Z") };
}

describe("probe route", () => {
  it("renderProbeLatest() returns the window, provenance, update time and each provider's summary and samples", () => {
    const body = ProbeLatestResponse.parse(renderProbeLatest(ctx({ type: "probe", data, meta: meta() })));
    expect(body).toMatchObject({ ok: true, window_hours: 24, samples_per_run: 3, provenance: "live", updated: LAST_SUCCESS });
    expect(body.providers).toHaveLength(1);
    expect(body.providers[0]?.summary).toMatchObject({ samples: 3, up: 2, ok_pct: 66.7, ttfb_p50: 61.2, total_p95: 183.1 });
    expect(body.providers[0]?.samples).toEqual(samples);
  });

  it("renderProbeLatest() answers 503 snapshot_unavailable when the snapshot is missing or malformed", () => {
    expect(() => renderProbeLatest(ctx(undefined))).toThrow(expect.objectContaining({ status: 503, code: "snapshot_unavailable" }));
    expect(() => renderProbeLatest(ctx({ type: "probe", data: { providers: [] }, meta: meta() }))).toThrow(/does not match its schema/);
  });

  it("probeRoutes declare the path, the snapshot and the 15-minute freshness", () => {
    expect(probeRoutes).toHaveLength(1);
    expect(probeRoutes[0]).toMatchObject({ method: "GET", path: "/api/probe/latest", tier: "free", snapshots: ["probe"], freshness: { cadence: "every 15 minutes", slaSeconds: 2_700 } });
  });
});
