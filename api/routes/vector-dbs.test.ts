import { describe, expect, it } from "vitest";
import { vectorDbsFeed } from "../../pipelines/feeds/vector-dbs.ts";
import { createApp, type AnyRoute, type ServedSnapshots } from "../app.ts";
import { ApiError, type LoadedSnapshot, type RenderContext } from "../registry/types.ts";
import { VectorDbsQuery, VectorDbsResponse, selectVectorDbs, vectorDbsRoutes } from "./vector-dbs.ts";
import { type VectorDbsSnapshot, vectorDbTypes } from "../../pipelines/contract/snapshots/vector-dbs.ts";

const data: VectorDbsSnapshot = (await vectorDbsFeed.run()).data;

function snapshots(body: unknown | undefined): ServedSnapshots {
  const loaded = body === undefined ? undefined : ({
    type: "vector-dbs",
    data: body,
    meta: {
      type: "vector-dbs", date: "2026-11-22", lastSuccess: "2026-11-22T05:21:03.000Z", lastAttempt: "2026-11-22T05:21:03.000Z",
      lastChanged: "2026-11-22T05:21:03.000Z", lastError: null, rows: 17, provenance: "live", slaSeconds: 172_800, cadence: "daily", sources: [],
    },
  } satisfies LoadedSnapshot);
  return {
    generation: 1,
    get: <T,>(type: string) => (type === "vector-dbs" ? (loaded as LoadedSnapshot<T> | undefined) : undefined),
    types: () => (loaded ? ["vector-dbs"] : []),
    dates: () => [],
    dated: async () => undefined,
  };
}

const ctx = (body: unknown | undefined): RenderContext => ({ snapshots: snapshots(body), baseUrl: "http://localhost:3000", now: new Date("2026-11-23T00:00:00Z") });
const render = vectorDbsRoutes[0]!.render!;
const run = async (query: Record<string, string>) => VectorDbsResponse.parse(await render(ctx(data), { query: VectorDbsQuery.parse(query), params: {} }));

describe("GET /api/vector-dbs", () => {
  it("render() without filters returns every database with lastUpdated from the data", async () => {
    const body = await run({});
    expect(body.count).toBe(data.databases.length);
    expect(body.databases).toEqual(data.databases);
    expect(body.lastUpdated).toBe(data.lastUpdated);
  });

  it("render() applies every type × open_source combination as an AND of both filters", async () => {
    const types = [undefined, ...vectorDbTypes];
    const flags: [string | undefined, boolean | undefined][] = [[undefined, undefined], ["true", true], ["1", true], ["false", false], ["0", false]];
    for (const type of types) {
      for (const [raw, flag] of flags) {
        const query: Record<string, string> = {};
        if (type) query.type = type;
        if (raw) query.open_source = raw;
        const body = await run(query);
        const expected = data.databases.filter((d) => (!type || d.type === type) && (flag === undefined || d.openSource === flag));
        expect(body.databases.map((d) => d.id), JSON.stringify(query)).toEqual(expected.map((d) => d.id));
        expect(body.count).toBe(expected.length);
      }
    }
  });

  it("render() with open_source=true keeps open-source entries of every type, not only oss", async () => {
    const body = await run({ open_source: "true" });
    expect(new Set(body.databases.map((d) => d.type))).toEqual(new Set(["oss", "hybrid"]));
    expect(body.databases.every((d) => d.openSource)).toBe(true);
    expect((await run({ open_source: "false" })).databases.every((d) => !d.openSource && d.type === "managed")).toBe(true);
    expect((await run({ type: "managed", open_source: "true" })).count).toBe(0);
  });

  it("VectorDbsQuery rejects unknown types, loose booleans, repeated values and unknown parameters", () => {
    for (const bad of [{ type: "cloud" }, { open_source: "yes" }, { open_source: "TRUE" }, { open_source: "" }, { open_source: ["true", "false"] }, { type: ["oss"] }, { page: "2" }]) {
      expect(VectorDbsQuery.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });

  it("render() throws 503 snapshot_unavailable when the snapshot is missing or malformed", async () => {
    for (const body of [undefined, { databases: "nope" }]) {
      const err = await Promise.resolve()
        .then(() => render(ctx(body), { query: {}, params: {} }))
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ApiError);
      expect(err).toMatchObject({ status: 503, code: "snapshot_unavailable" });
    }
  });

  it("selectVectorDbs() returns an empty list, not an error, when nothing matches", () => {
    const body = selectVectorDbs({ ...data, databases: data.databases.filter((d) => d.type === "oss") }, { type: "managed" });
    expect(body).toEqual({ ok: true, lastUpdated: data.lastUpdated, count: 0, databases: [] });
  });

  it("the served route answers 200 with filters and 400 invalid_query for a bad boolean", async () => {
    const { app, dispose } = createApp({ routes: vectorDbsRoutes as readonly AnyRoute[], snapshots: snapshots(data), baseUrl: "http://localhost", rateLimitPerMinute: 0, trustProxy: null });
    try {
      const ok = await app.fetch(new Request("http://localhost/api/vector-dbs?type=hybrid&open_source=1"));
      expect(ok.status).toBe(200);
      const body = VectorDbsResponse.parse(await ok.json());
      expect(body.databases.every((d) => d.type === "hybrid" && d.openSource)).toBe(true);
      const bad = await app.fetch(new Request("http://localhost/api/vector-dbs?open_source=yes"));
      expect(bad.status).toBe(400);
      expect(await bad.json()).toMatchObject({ ok: false, error: "invalid_query" });
    } finally {
      dispose();
    }
  });
});
