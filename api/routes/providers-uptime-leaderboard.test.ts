import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WAREHOUSE_TABLES } from "../../pipelines/contract/warehouse-tables.ts";
import { writeWarehouse } from "../../pipelines/lib/warehouse/write.ts";
import type { RenderContext } from "../registry/types.ts";
import { openWarehouseReader, type OpenWarehouseReader } from "../warehouse/reader.ts";
import { providersUptimeLeaderboardRoutes } from "./providers-uptime-leaderboard.ts";

let dir: string;
let empty: string;
let reader: OpenWarehouseReader;
let emptyReader: OpenWarehouseReader;
const route = providersUptimeLeaderboardRoutes[0]!;
const sample = (date: string, hour: string, provider: string, status: string) => ({
  ts: `${date}T${hour}:00:00Z`, date, provider, status, components_total: 1, components_degraded: 0, components_down: status === "down" ? 1 : 0,
});
const day = (date: string, rows: ReturnType<typeof sample>[]) => writeWarehouse(dir, date, [{ table: "status_samples", key: [...WAREHOUSE_TABLES.status_samples.key], rows }]);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "agentfeed-leaderboard-"));
  empty = await mkdtemp(join(tmpdir(), "agentfeed-leaderboard-empty-"));
  // A day outside the 7-day window (where "alpha" was down all day), then two days inside it.
  await day("2026-01-01", [sample("2026-01-01", "00", "alpha", "down"), sample("2026-01-01", "00", "beta", "operational")]);
  await day("2026-01-08", [sample("2026-01-08", "00", "alpha", "operational"), sample("2026-01-08", "00", "beta", "operational"), sample("2026-01-08", "12", "beta", "down"), sample("2026-01-08", "00", "gamma", "unknown")]);
  await day("2026-01-09", [sample("2026-01-09", "00", "alpha", "degraded"), sample("2026-01-09", "00", "beta", "operational"), sample("2026-01-09", "00", "delta", "operational")]);
  reader = await openWarehouseReader({ dirs: [dir] });
  emptyReader = await openWarehouseReader({ dirs: [empty] });
});
afterAll(async () => {
  reader?.close();
  emptyReader?.close();
  await rm(dir, { recursive: true, force: true });
  await rm(empty, { recursive: true, force: true });
});

const ctx = (warehouse: OpenWarehouseReader): RenderContext => ({ snapshots: undefined as never, baseUrl: "http://x", now: new Date("2026-01-10T00:00:00Z"), warehouse });

describe("GET /api/providers/uptime-leaderboard", () => {
  it("ranks providers over the 7 days ending with the newest day; unknown-only providers and older days are left out", async () => {
    const body = (await route.render!(ctx(reader), { query: {}, params: {} })) as Record<string, any>;
    expect(route.response.safeParse(body).success).toBe(true);
    expect(body.window).toEqual({ from: "2026-01-03", to: "2026-01-09", days: 7 });
    expect(body.leaderboard.map((e: any) => [e.rank, e.provider, e.uptime_pct, e.samples, e.days])).toEqual([
      // alpha: operational then degraded (degraded counts as up) but with incident seconds; delta: one clean sample.
      [1, "delta", 100, 1, 1],
      [2, "alpha", 100, 2, 2],
      [3, "beta", 66.67, 3, 2],
    ]);
    expect(body.leaderboard[1].incident_seconds).toBe(3600);
    expect(body).toMatchObject({ count: 3, note: null, source: expect.stringContaining("status_samples") });
  });

  it("an empty warehouse answers an empty leaderboard with a note, never a guess", async () => {
    const body = (await route.render!(ctx(emptyReader), { query: {}, params: {} })) as Record<string, any>;
    expect(body).toEqual({ ok: true, window: null, count: 0, source: null, note: "the warehouse holds no status samples yet", leaderboard: [] });
  });
});
