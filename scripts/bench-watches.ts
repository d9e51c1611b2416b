/**
 * `npm run bench:watches`: the watch evaluation at scale. In a fresh embedded Postgres it registers 10,000
 * price watches over 400 tokens (25 each, straight into the table) on a 1,000-model catalog, then replays a
 * pipeline run that changes 500 of those prices and times the set-based runner (api/watches/runner.ts): the
 * watches it re-evaluated and the outbox rows it wrote in one transaction. Then the same run again (nothing
 * may fire) and a run over unchanged data. Target: the 500-price run within 1 s.
 *
 * Env: BENCH_WATCHES (default 10000), BENCH_TOKENS (default 400), BENCH_MODELS (default 1000), BENCH_CHANGED (default 500).
 */
import { randomBytes } from "node:crypto";
import { cpus, loadavg } from "node:os";
import { createCredits } from "../api/billing/credits.ts";
import { openTempDatabase } from "../api/state/testing/temp-database.ts";
import { runWatches } from "../api/watches/runner.ts";
import type { ModelPrices } from "../api/watches/values.ts";
import { blended } from "../api/verdicts/price.ts";

const int = (name: string, fallback: number) => {
  const v = Number(process.env[name] ?? fallback);
  if (!Number.isSafeInteger(v) || v <= 0) throw new Error(`${name} must be a positive integer`);
  return v;
};
const WATCHES = int("BENCH_WATCHES", 10_000);
const TOKENS = int("BENCH_TOKENS", 400);
const MODELS = int("BENCH_MODELS", 1000);
const CHANGED = Math.min(int("BENCH_CHANGED", 500), MODELS);

const model = (i: number) => `bench-model-${String(i).padStart(4, "0")}`;
const catalog = (changed: number): Map<string, ModelPrices> => {
  const out = new Map<string, ModelPrices>();
  for (let i = 0; i < MODELS; i++) {
    const input = 1 + (i % 10) / 10 - (i < changed ? 0.75 : 0);
    const output = 4 + (i % 7) / 10 - (i < changed ? 0.5 : 0);
    out.set(model(i), { provider: `bench-provider-${i % 25}`, inputPrice: input, outputPrice: output, blended: blended(input, output) });
  }
  return out;
};

const temp = await openTempDatabase();
try {
  const { db } = temp;
  const credits = createCredits(db);
  const tokens: string[] = [];
  await db.transaction(async (tx) => {
    for (let i = 0; i < TOKENS; i++) tokens.push((await credits.mintToken(tx, { kind: "paid" })).id);
  });

  // 10,000 watches: ops and fields mixed, thresholds between the old and new prices for half the lt watches.
  const before = catalog(0);
  const fields = ["inputPrice", "outputPrice", "blended"] as const;
  const ops = ["lt", "gt", "changes"] as const;
  const ids: string[] = [];
  const owners: string[] = [];
  const specs: string[] = [];
  const seen: string[] = [];
  for (let i = 0; i < WATCHES; i++) {
    const m = model(i % MODELS);
    const field = fields[i % 3]!;
    const op = ops[Math.floor(i / 3) % 3]!;
    const value = before.get(m)![field];
    const threshold = op === "lt" ? value - 0.25 : op === "gt" ? value + 1 : undefined;
    ids.push(`wat_${randomBytes(12).toString("hex")}`);
    owners.push(tokens[i % TOKENS]!);
    specs.push(JSON.stringify({ type: "price", model: m, field, op, ...(threshold === undefined ? {} : { threshold }) }));
    seen.push(JSON.stringify({ value }));
  }
  const now = new Date();
  await db.query(
    `INSERT INTO watches (id, token_id, spec, callback_url, secret, fire_cap, created_at, expires_at, last_seen, evaluated_at)
     SELECT id, token_id, spec::jsonb, 'https://hooks.example.com/bench', 'whsec_' || repeat('b', 40), 100, $5, $6, seen::jsonb, $5
     FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) AS w(id, token_id, spec, seen)`,
    [ids, owners, specs, seen, now, new Date(now.getTime() + 90 * 86_400_000)],
  );
  await db.query("ANALYZE watches");

  const timed = async (label: string, prices: Map<string, ModelPrices>) => {
    const start = performance.now();
    const r = await runWatches(db, { prices }, new Date());
    const ms = performance.now() - start;
    console.log(`${label.padEnd(40)} ${ms.toFixed(0).padStart(6)} ms   re-evaluated ${String(r.evaluated).padStart(6)}   outbox rows written ${String(r.fired).padStart(6)}`);
    return { ms, ...r };
  };
  console.log(`bench:watches: ${WATCHES} active price watches over ${TOKENS} tokens on ${MODELS} models (load average ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores)`);
  const changed = catalog(CHANGED);
  const first = await timed(`pipeline run changing ${CHANGED} prices`, changed);
  await timed("the same run again", changed);
  await timed("a run over unchanged data", changed);
  const { rows } = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM webhook_deliveries WHERE kind = 'fire' AND state = 'pending'");
  console.log(`outbox: ${rows[0]!.n} pending fire rows (one per fired watch: ${rows[0]!.n === first.fired ? "yes" : "NO"})`);
  console.log(`target: evaluation ≤ 1000 ms → ${first.ms <= 1000 ? "met" : "MISSED"} (${first.ms.toFixed(0)} ms)`);
} finally {
  await temp.close();
}
