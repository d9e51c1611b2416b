import { describe, expect, it } from "vitest";
import type { LoadedSnapshot, RenderContext, SnapshotMeta, SnapshotReader } from "../registry/types.ts";
import { AFTA_ADOPTERS_NOTE, AftaAdoptersResponse, aftaAdoptersRoutes } from "./afta-adopters.ts";
import type { AftaAdoptersSnapshot } from "../../pipelines/contract/snapshots/afta-adopters.ts";

const LAST = "2026-11-22T06:41:09.000Z";
const data: AftaAdoptersSnapshot = {
  adopters: [
    { domain: "a.example-pub.test", status: "valid", version: "1.0" },
    { domain: "b.example-pub.test", status: "invalid", reason: "missing or malformed fields: publisher.url: Invalid input" },
    { domain: "c.example-pub.test", status: "unreachable", reason: "GET … failed: 404 Not Found" },
  ],
};
const meta = (over: Partial<SnapshotMeta> = {}): SnapshotMeta => ({
  type: "afta-adopters", date: "2026-11-22", lastSuccess: LAST, lastAttempt: LAST, lastChanged: LAST, lastError: null, rows: 3,
  provenance: "replay", slaSeconds: 172800, cadence: "daily", sources: [], ...over,
});
function ctx(snapshot: LoadedSnapshot | undefined): RenderContext {
  const reader: SnapshotReader = {
    get: <T,>(type: string) => (type === "afta-adopters" ? (snapshot as LoadedSnapshot<T> | undefined) : undefined),
    types: () => [], dates: () => [], dated: async () => undefined,
  };
  return { snapshots: reader, baseUrl: "http://localhost:3000", now: new Date("2026-11-22T08:00:00Z") };
}
const render = aftaAdoptersRoutes[0]!.render!;
const input = { query: {}, params: {} } as never;

describe("GET /api/afta/adopters", () => {
  it("render() marks the list not authoritative and injects checked_at from the manifest", async () => {
    const body = AftaAdoptersResponse.parse(await render(ctx({ type: "afta-adopters", data, meta: meta() }), input));
    expect(body.ok).toBe(true);
    expect(body.authoritative).toBe(false);
    expect(body.note).toBe(AFTA_ADOPTERS_NOTE);
    expect(body.updated).toBe(LAST);
    expect(body.count).toBe(3);
    expect(body.adopters[0]).toEqual({ domain: "a.example-pub.test", status: "valid", version: "1.0", checked_at: LAST });
    expect(body.adopters.every((a) => a.checked_at === LAST)).toBe(true);
  });

  it("render() answers 503 without a snapshot or a successful run", async () => {
    await expect(async () => render(ctx(undefined), input)).rejects.toMatchObject({ status: 503, code: "snapshot_unavailable" });
    await expect(async () => render(ctx({ type: "afta-adopters", data, meta: meta({ lastSuccess: null }) }), input)).rejects.toMatchObject({ status: 503 });
  });

  it("aftaAdoptersRoutes declare the path, free tier, snapshot and daily freshness", () => {
    expect(aftaAdoptersRoutes[0]).toMatchObject({ path: "/api/afta/adopters", tier: "free", snapshots: ["afta-adopters"], freshness: { cadence: "daily", slaSeconds: 172800 } });
  });
});
