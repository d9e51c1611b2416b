import { describe, expect, it } from "vitest";
import { ApiError, type LoadedSnapshot, type RenderContext, type SnapshotMeta, type SnapshotReader } from "../registry/types.ts";
import { STATUS_SOURCE, StatusResponse, StatusSummaryResponse, statusRoutes, summarize } from "./status.ts";
import type { StatusSnapshot } from "../../pipelines/contract/snapshots/status.ts";

const LAST_SUCCESS = "2026-11-22T10:00:07.412Z";

const data: StatusSnapshot = {
  services: [
    { name: "Anthropic", provider: "anthropic", status: "degraded", statusPageUrl: "https://status.claude.com", components: [{ name: "Claude API", status: "degraded" }] },
    { name: "Cohere", provider: "cohere", status: "unknown", statusPageUrl: "https://status.cohere.com", components: [] },
    { name: "Groq", provider: "groq", status: "down", statusPageUrl: "https://groqstatus.com", components: [{ name: "API", status: "down" }, { name: "Chat", status: "degraded" }] },
    { name: "OpenAI", provider: "openai", status: "operational", statusPageUrl: "https://status.openai.com", components: [{ name: "Chat Completions", status: "operational" }] },
    { name: "xAI", provider: "xai", status: "operational", statusPageUrl: "https://status.x.ai", components: [] },
  ],
};

function meta(over: Partial<SnapshotMeta> = {}): SnapshotMeta {
  return {
    type: "status", date: "2026-11-22", lastSuccess: LAST_SUCCESS, lastAttempt: LAST_SUCCESS, lastChanged: "2026-11-22T09:44:30.000Z",
    lastError: null, rows: data.services.length, provenance: "replay", slaSeconds: 600, cadence: "every 2 minutes", sources: [], ...over,
  };
}

function ctx(snapshot: LoadedSnapshot<StatusSnapshot> | undefined): RenderContext {
  const reader: SnapshotReader = {
    get: <T,>(type: string) => (type === "status" ? (snapshot as LoadedSnapshot<T> | undefined) : undefined),
    types: () => (snapshot ? ["status"] : []),
    dates: () => [],
    dated: async () => undefined,
  };
  return { snapshots: reader, baseUrl: "http://localhost:3000", now: new Date("2026-11-22T10:01:00Z") };
}

const route = (path: string) => {
  const r = statusRoutes.find((x) => x.path === path);
  if (!r?.render) throw new Error(`no render for ${path}`);
  return r.render;
};
const input = { query: {}, params: {} } as never;

describe("status routes", () => {
  it("GET /api/status render() injects lastChecked from the manifest lastSuccess", async () => {
    const body = StatusResponse.parse(await route("/api/status")(ctx({ type: "status", data, meta: meta() }), input));
    expect(body.ok).toBe(true);
    expect(body.source).toBe(STATUS_SOURCE);
    expect(body.checked).toBe(LAST_SUCCESS);
    expect(body.services.map((s) => s.provider)).toEqual(["anthropic", "cohere", "groq", "openai", "xai"]);
    expect(body.services.every((s) => s.lastChecked === LAST_SUCCESS)).toBe(true);
    expect(body.services[2]).toEqual({ ...data.services[2], lastChecked: LAST_SUCCESS });
  });

  it("GET /api/status/summary render() counts providers per status", async () => {
    const body = StatusSummaryResponse.parse(await route("/api/status/summary")(ctx({ type: "status", data, meta: meta() }), input));
    expect(body).toEqual({ ok: true, summary: { total: 5, operational: 2, degraded: 1, down: 1, unknown: 1 } });
  });

  it("summarize() makes the four statuses add up to total", () => {
    const s = summarize(data.services);
    expect(s.operational + s.degraded + s.down + s.unknown).toBe(s.total);
    expect(summarize([])).toEqual({ total: 0, operational: 0, degraded: 0, down: 0, unknown: 0 });
  });

  it("render() answers 503 snapshot_unavailable without a snapshot or a successful run", async () => {
    for (const path of ["/api/status", "/api/status/summary"]) {
      await expect(async () => route(path)(ctx(undefined), input)).rejects.toMatchObject({ status: 503, code: "snapshot_unavailable" });
      await expect(async () => route(path)(ctx({ type: "status", data, meta: meta({ lastSuccess: null }) }), input)).rejects.toBeInstanceOf(ApiError);
    }
  });

  it("statusRoutes declare the status snapshot and its 2-minute freshness", () => {
    for (const r of statusRoutes) {
      expect(r.snapshots).toEqual(["status"]);
      expect(r.freshness).toEqual({ cadence: "every 2 minutes", slaSeconds: 600 });
      expect(r.tier).toBe("free");
    }
  });
});
