/**
 * The set-based runner: in ONE transaction (runs serialized by a transaction-level advisory lock, across
 * processes), marks expired watches, selects the active watches whose watched value differs from what they
 * last saw, evaluates each with its type's pure evaluator, then writes every watch's new memory and every
 * fire's outbox row in ONE statement (an UPDATE … RETURNING feeding the INSERT, so a watch deleted meanwhile
 * is neither updated nor fired). A crash loses both or keeps both; a second run over the same data finds
 * nothing to do (edge-triggered through last_seen).
 */
import type { Database, Sql } from "../state/types.ts";
import { evaluateDigest, type DigestSeen, type Period, type pricingSummary } from "./evaluate-digest.ts";
import { evaluateLeaderboardRank, type RankSeen } from "./evaluate-leaderboard.ts";
import { evaluatePrice, type PriceSeen } from "./evaluate-price.ts";
import { evaluateStatus, type StatusSeen } from "./evaluate-status.ts";
import { fireRule, type Evaluation } from "./evaluation.ts";
import { newMessageId } from "./ids.ts";
import type { Leaderboard } from "./leaderboard.ts";
import type { DigestSpec, LeaderboardRankSpec, PriceSpec, StatusSpec, WatchSpec } from "./spec.ts";
import type { ModelPrices } from "./values.ts";

/** What one run compares against; a type left out is not evaluated. */
export interface RunInputs {
  prices?: Map<string, ModelPrices>;
  statuses?: Map<string, string>;
  leaderboard?: Leaderboard;
  /** Due digest periods per cadence, each with its pricing summary. */
  digests?: { cadence: DigestSpec["cadence"]; period: Period; pricing: ReturnType<typeof pricingSummary> }[];
}

/** What a run did. */
export interface RunResult {
  /** Watches whose watched value changed (their memory was rewritten). */
  evaluated: number;
  /** Outbox rows written. */
  fired: number;
  /** Watches marked expired. */
  expired: number;
}

interface WatchRow {
  id: string;
  spec: WatchSpec;
  last_seen: Record<string, unknown> | null;
  status: string;
  fire_count: number;
  fire_cap: number;
  expires_at: Date;
}

/** The name the runner's advisory lock is keyed on. */
const RUNNER_LOCK = "agentfeed watches runner";

const SELECT = "SELECT w.id, w.spec, w.last_seen, w.status, w.fire_count, w.fire_cap, w.expires_at FROM watches w";
const ACTIVE = "w.status = 'active' AND w.expires_at > $1";

/** Evaluate every active watch of the types in `inputs` against them. */
export async function runWatches(db: Database, inputs: RunInputs, now: Date): Promise<RunResult> {
  return db.transaction(async (tx) => {
    await tx.query("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", [RUNNER_LOCK]);
    const expired = (await tx.query("UPDATE watches SET status = 'expired' WHERE status = 'active' AND expires_at <= $1", [now])).rowCount;
    const outcomes: { row: WatchRow; result: Evaluation<unknown> }[] = [];
    if (inputs.prices) {
      const prices = inputs.prices;
      const models = [...prices.keys()];
      const rows = await lockRows(
        tx,
        `${SELECT} JOIN unnest($2::text[], $3::float8[], $4::float8[], $5::float8[]) AS c(model, input, output, blended) ON c.model = w.spec ->> 'model'
         WHERE ${ACTIVE} AND w.spec ->> 'type' = 'price'
           AND (w.last_seen ->> 'value')::float8 IS DISTINCT FROM (CASE w.spec ->> 'field' WHEN 'inputPrice' THEN c.input WHEN 'outputPrice' THEN c.output ELSE c.blended END)`,
        [now, models, models.map((m) => prices.get(m)!.inputPrice), models.map((m) => prices.get(m)!.outputPrice), models.map((m) => prices.get(m)!.blended)],
      );
      for (const row of rows) outcomes.push({ row, result: evaluatePrice(row.spec as PriceSpec, row.last_seen as PriceSeen | null, prices.get((row.spec as PriceSpec).model)) });
    }
    if (inputs.statuses) {
      const statuses = inputs.statuses;
      const providers = [...statuses.keys()];
      const rows = await lockRows(
        tx,
        `${SELECT} JOIN unnest($2::text[], $3::text[]) AS c(provider, status) ON c.provider = w.spec ->> 'provider'
         WHERE ${ACTIVE} AND w.spec ->> 'type' = 'status' AND (w.last_seen ->> 'value') IS DISTINCT FROM c.status`,
        [now, providers, providers.map((p) => statuses.get(p)!)],
      );
      for (const row of rows) outcomes.push({ row, result: evaluateStatus(row.spec as StatusSpec, row.last_seen as StatusSeen | null, statuses.get((row.spec as StatusSpec).provider)) });
    }
    if (inputs.leaderboard?.window) {
      const board = inputs.leaderboard;
      const window = { from: board.window!.from, to: board.window!.to };
      const byProvider = new Map(board.entries.map((e) => [e.provider, e]));
      const rows = await lockRows(
        tx,
        `${SELECT} LEFT JOIN unnest($2::text[], $3::int[]) AS c(provider, rank) ON c.provider = w.spec ->> 'provider'
         WHERE ${ACTIVE} AND w.spec ->> 'type' = 'leaderboard_rank' AND (w.last_seen ->> 'rank')::int IS DISTINCT FROM c.rank`,
        [now, board.entries.map((e) => e.provider), board.entries.map((e) => e.rank)],
      );
      for (const row of rows) {
        const spec = row.spec as LeaderboardRankSpec;
        outcomes.push({ row, result: evaluateLeaderboardRank(spec, row.last_seen as RankSeen | null, byProvider.get(spec.provider), window) });
      }
    }
    for (const due of inputs.digests ?? []) {
      const rows = await lockRows(
        tx,
        `${SELECT} WHERE ${ACTIVE} AND w.spec ->> 'type' = 'digest' AND w.spec ->> 'cadence' = $2
           AND coalesce((w.last_seen ->> 'period_to')::timestamptz < $3::timestamptz, true)`,
        [now, due.cadence, due.period.to],
      );
      for (const row of rows) outcomes.push({ row, result: evaluateDigest(row.spec as DigestSpec, row.last_seen as DigestSeen | null, due.period, due.pricing) });
    }
    const fired = await record(tx, outcomes, now);
    return { evaluated: outcomes.length, fired, expired };
  });
}

/** Run the SELECT of candidate watches (the advisory lock keeps other runners out; deletions are re-checked on write). */
async function lockRows(tx: Sql, sql: string, params: unknown[]): Promise<WatchRow[]> {
  const { rows } = await tx.query(sql, params);
  return rows as unknown as WatchRow[];
}

/** One statement: the UPDATE of every evaluated watch feeding the INSERT of every fire; returns the outbox rows written. */
async function record(tx: Sql, outcomes: { row: WatchRow; result: Evaluation<unknown> }[], now: Date): Promise<number> {
  if (outcomes.length === 0) return 0;
  const ids: string[] = [];
  const seen: string[] = [];
  const fires: boolean[] = [];
  const messageIds: (string | null)[] = [];
  const bodies: (string | null)[] = [];
  const firedAt = now.toISOString();
  for (const { row, result } of outcomes) {
    const fire = result.match !== null && fireRule(row, now).mayFire;
    ids.push(row.id);
    seen.push(JSON.stringify(result.seen));
    fires.push(fire);
    messageIds.push(fire ? newMessageId() : null);
    bodies.push(fire ? JSON.stringify({ event: "watch.fire", watch_id: row.id, fired_at: firedAt, spec: row.spec, match: result.match }) : null);
  }
  const written = await tx.query(
    `WITH u AS (
       UPDATE watches w SET last_seen = u.seen::jsonb, evaluated_at = $6,
         fire_count = w.fire_count + CASE WHEN u.fire THEN 1 ELSE 0 END,
         status = CASE WHEN u.fire AND w.fire_count + 1 >= w.fire_cap THEN 'capped' ELSE w.status END
       FROM unnest($1::text[], $2::text[], $3::bool[], $4::text[], $5::text[]) AS u(id, seen, fire, message_id, body)
       WHERE w.id = u.id AND w.status = 'active' AND (NOT u.fire OR w.fire_count < w.fire_cap)
       RETURNING w.id, u.fire, u.message_id, u.body
     )
     INSERT INTO webhook_deliveries (id, watch_id, kind, body, state, created_at, next_attempt_at)
     SELECT message_id, id, 'fire', body, 'pending', $6, $6 FROM u WHERE fire`,
    [ids, seen, fires, messageIds, bodies, now],
  );
  return written.rowCount;
}
