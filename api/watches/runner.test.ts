import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCredits } from "../billing/credits.ts";
import { openTempDatabase, type TempDatabase } from "../state/testing/temp-database.ts";
import { lastClosedPeriod, pricingSummary } from "./evaluate-digest.ts";
import { runWatches } from "./runner.ts";
import type { WatchSpec } from "./spec.ts";
import { deleteWatch, registerWatch } from "./store.ts";
import type { ModelPrices } from "./values.ts";

let temp: TempDatabase;
let tokenId: string;
const now = new Date("2026-11-23T12:00:00Z");
const later = (minutes: number) => new Date(now.getTime() + minutes * 60_000);
const price = (input: number): Map<string, ModelPrices> => new Map([["m1", { provider: "p", inputPrice: input, outputPrice: 4, blended: (3 * input + 4) / 4 }]]);

beforeAll(async () => {
  temp = await openTempDatabase();
  const credits = createCredits(temp.db);
  tokenId = (await temp.db.transaction((tx) => credits.mintToken(tx, { kind: "paid" }))).id;
}, 60_000);
afterAll(async () => {
  await temp?.close();
});

async function watch(spec: WatchSpec, lastSeen: Record<string, unknown>, fireCap = 100) {
  await temp.db.query("DELETE FROM webhook_deliveries");
  await temp.db.query("UPDATE watches SET status = 'deleted' WHERE status = 'active'");
  return registerWatch(temp.db, { tokenId, spec, callbackUrl: "https://hooks.example.com/x", secret: "whsec_" + "a".repeat(40), fireCap, lastSeen }, now);
}

const outbox = async () => (await temp.db.query<{ watch_id: string; kind: string; body: string; state: string; id: string }>("SELECT id, watch_id, kind, body, state FROM webhook_deliveries ORDER BY created_at, id")).rows;

describe("runWatches", () => {
  it("a crossing writes one outbox row with the delivery payload; an identical second run writes none", async () => {
    const w = await watch({ type: "price", model: "m1", field: "inputPrice", op: "lt", threshold: 2 }, { value: 3 });
    expect(await runWatches(temp.db, { prices: price(1.5) }, later(1))).toEqual({ evaluated: 1, fired: 1, expired: 0 });
    const rows = await outbox();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ watch_id: w.id, kind: "fire", state: "pending" });
    expect(rows[0]!.id).toMatch(/^msg_[0-9a-f]{24}$/);
    expect(JSON.parse(rows[0]!.body)).toEqual({
      event: "watch.fire",
      watch_id: w.id,
      fired_at: later(1).toISOString(),
      spec: { type: "price", model: "m1", field: "inputPrice", op: "lt", threshold: 2 },
      match: { type: "price", model: "m1", provider: "p", field: "inputPrice", from: 3, to: 1.5, delta_pct: -50, threshold: 2, crossed: "below" },
    });
    expect(await runWatches(temp.db, { prices: price(1.5) }, later(2))).toEqual({ evaluated: 0, fired: 0, expired: 0 });
    // Staying below the threshold at another price updates the memory and fires nothing.
    expect(await runWatches(temp.db, { prices: price(1.2) }, later(3))).toEqual({ evaluated: 1, fired: 0, expired: 0 });
    expect(await outbox()).toHaveLength(1);
    const { rows: after } = await temp.db.query<{ fire_count: number; last_seen: unknown }>("SELECT fire_count, last_seen FROM watches WHERE id = $1", [w.id]);
    expect(after[0]).toEqual({ fire_count: 1, last_seen: { value: 1.2 } });
  });

  it("stops at fire_cap: the capping fire is written, later changes are not", async () => {
    const w = await watch({ type: "price", model: "m1", field: "inputPrice", op: "changes" }, { value: 1 }, 2);
    for (const [i, p] of [2, 3, 4, 5].entries()) await runWatches(temp.db, { prices: price(p) }, later(10 + i));
    expect(await outbox()).toHaveLength(2);
    const { rows } = await temp.db.query("SELECT status, fire_count FROM watches WHERE id = $1", [w.id]);
    expect(rows[0]).toEqual({ status: "capped", fire_count: 2 });
  });

  it("expired and deleted watches never fire; expiry is recorded", async () => {
    const w = await watch({ type: "status", provider: "openai", op: "changes" }, { value: "operational" });
    expect(await runWatches(temp.db, { statuses: new Map([["openai", "down"]]) }, new Date(now.getTime() + 91 * 86_400_000))).toMatchObject({ fired: 0, expired: 1 });
    const { rows } = await temp.db.query("SELECT status FROM watches WHERE id = $1", [w.id]);
    expect(rows[0]).toEqual({ status: "expired" });

    const d = await watch({ type: "status", provider: "openai", op: "changes" }, { value: "operational" });
    await deleteWatch(temp.db, tokenId, d.id, now);
    expect(await runWatches(temp.db, { statuses: new Map([["openai", "down"]]) }, later(1))).toMatchObject({ fired: 0, evaluated: 0 });
    expect(await outbox()).toHaveLength(0);
  });

  it("leaderboard_rank and digest watches fire through the same runner", async () => {
    const r = await watch({ type: "leaderboard_rank", provider: "openai", op: "drops_below", threshold: 1 }, { rank: 1 });
    const board = { window: { from: "2026-11-16", to: "2026-11-22", days: 7 }, entries: [{ rank: 1, provider: "anthropic", uptime_pct: 100, samples: 9, incident_seconds: 0, days: 7, of: 2 }, { rank: 2, provider: "openai", uptime_pct: 99, samples: 9, incident_seconds: 60, days: 7, of: 2 }] };
    expect(await runWatches(temp.db, { leaderboard: board }, later(1))).toMatchObject({ fired: 1 });
    expect(JSON.parse((await outbox())[0]!.body).match).toMatchObject({ type: "leaderboard_rank", from_rank: 1, to_rank: 2, window: { from: "2026-11-16", to: "2026-11-22" } });
    await deleteWatch(temp.db, tokenId, r.id, now);

    const period = lastClosedPeriod("daily", now);
    await watch({ type: "digest", cadence: "daily" }, { period_to: period.from });
    const digests = [{ cadence: "daily" as const, period, pricing: pricingSummary(price(1), price(2)) }];
    expect(await runWatches(temp.db, { digests }, later(1))).toMatchObject({ fired: 1 });
    expect(await runWatches(temp.db, { digests }, later(2))).toMatchObject({ fired: 0 });
    expect(JSON.parse((await outbox())[0]!.body).match).toMatchObject({ type: "digest", cadence: "daily", period, pricing: { total_changes: 1 } });
  });

  it("two runs at the same moment fire once", async () => {
    await watch({ type: "price", model: "m1", field: "inputPrice", op: "gt", threshold: 10 }, { value: 5 });
    const results = await Promise.all([runWatches(temp.db, { prices: price(11) }, later(1)), runWatches(temp.db, { prices: price(11) }, later(1))]);
    expect(results.map((r) => r.fired).sort()).toEqual([0, 1]);
    expect(await outbox()).toHaveLength(1);
  });
});
