/**
 * Group commit of paid calls: the one durable write a paid call costs, shared with every other paid call of
 * the same instant in this process (on one token or many). A call submits its settlement after its handler
 * ran; settlements that arrive while a commit is in flight wait and go together in the next one (one short
 * tick, TigerBeetle-style).
 *
 * A batch of plain charges is one statement (billing_charge_batch, migration 0194: set-based, one debit per
 * token whatever the batch size) in one durable commit: one round trip. Up to two batches are in flight, so
 * one is decided while the other is written (on one token the second waits for the first's row lock). A batch
 * with an Idempotency-Key, or an answer to store without a charge, is one transaction:
 *
 * 1. lock the batch's token rows (`SELECT … ORDER BY id FOR UPDATE`: the same order in every process, so
 *    two processes never deadlock), and read the Idempotency-Key records the batch names;
 * 2. decide each call in arrival order against the locked balance: charged (balance ≥ cost and the token
 *    live), short (402), or key taken (an earlier request with the same key got there first);
 * 3. one statement writes everything decided: the debit per token, a committed charge row per call (the
 *    `holds` table, status `committed`, with its receipt id and response hash), its ledger entry, and the
 *    Idempotency-Key records with their final answers;
 * 4. COMMIT. Only then is any caller answered.
 *
 * Another process's batch on the same token waits for the row lock and then sees the new balance, so credits
 * stay exact across processes. If the transaction fails, every call of the batch fails with it and nothing was
 * charged.
 */
import type { Database } from "../state/types.ts";
import { StateTooLate } from "../state/unavailable.ts";
import { randomHex } from "./random-ids.ts";
import { bindsKey, type IdempotencyRecordRow, type StoredIdempotency } from "./idempotency.ts";

/** Most settlements one transaction carries. */
export const MAX_BATCH = 256;

/**
 * How long after it is sent a batch may still reach its token rows and charge. Well inside the state database's
 * query time-out (api/state/database.ts), after which the callers stop waiting and answer 503 with nothing
 * charged: a batch later than this (a paused server, a row lock held for seconds) writes nothing.
 */
export const CHARGE_DEADLINE_MS = 5_000;

/** How a settlement was decided. `balance` is the token's balance right after this call's debit (or without it). */
export type Settled =
  | { kind: "charged"; balance: number; chargeId: string }
  | { kind: "free"; balance: number }
  | { kind: "short"; balance: number }
  | { kind: "expired" }
  | { kind: "key_taken"; stored: StoredIdempotency };

/** One paid call's settlement, submitted after its handler ran. */
export interface Settlement {
  tokenId: string;
  /** Credits to take; 0 for an answer that charges nothing (only its Idempotency-Key record, if any, is written). */
  cost: number;
  endpoint: string;
  requestHash: string;
  responseHash: string;
  receiptId: string;
  /** With an Idempotency-Key: the key, when the request started, and the final answer for a decision (null: not stored). */
  idempotency?: {
    key: string;
    createdAt: Date;
    /** Called inside the transaction with this call's decision; the returned answer is stored with the key. */
    answer(settled: Settled): { status: number; body: string } | null;
  };
}

/** Options of {@link GroupCommit}. */
export interface GroupCommitOptions {
  /** The clock Idempotency-Key records are aged against. */
  now?: () => Date;
  /** Most batches in flight at once (default 2): while one is written, the next is already on its way. */
  maxInFlight?: number;
  /** {@link CHARGE_DEADLINE_MS} (default); keep it well under the state database's query time-out. */
  deadlineMs?: number;
}

interface Pending {
  settlement: Settlement;
  resolve(settled: Settled): void;
  reject(error: unknown): void;
}

interface TokenRow extends Record<string, unknown> {
  id: string;
  balance: string;
  live: boolean;
}

interface IdempotencyRow extends IdempotencyRecordRow {
  token_id: string;
  idem_key: string;
}

/** The group committer of one process. */
export class GroupCommit {
  #queue: Pending[] = [];
  #inFlight = 0;
  #scheduled = false;
  readonly #maxInFlight: number;
  /** Transactions run so far (for tests and the benchmark's report). */
  commits = 0;
  /** Settlements written so far. */
  settled = 0;

  constructor(
    private readonly db: Pick<Database, "query" | "transaction">,
    private readonly options: GroupCommitOptions = {},
  ) {
    this.#maxInFlight = Math.max(1, Math.floor(options.maxInFlight ?? 2));
  }

  /** Queue a settlement; resolves once the transaction carrying it is durable. */
  submit(settlement: Settlement): Promise<Settled> {
    if (!Number.isSafeInteger(settlement.cost) || settlement.cost < 0) {
      return Promise.reject(new Error(`group commit: cost must be a non-negative integer, got ${settlement.cost}`));
    }
    return new Promise<Settled>((resolve, reject) => {
      this.#queue.push({ settlement, resolve, reject });
      this.#schedule();
    });
  }

  #schedule(): void {
    if (this.#inFlight >= this.#maxInFlight || this.#scheduled || this.#queue.length === 0) return;
    this.#scheduled = true;
    setImmediate(() => void this.#flush());
  }

  async #flush(): Promise<void> {
    this.#scheduled = false;
    this.#inFlight++;
    const batch = this.#queue.splice(0, MAX_BATCH);
    try {
      const settlements = batch.map((p) => p.settlement);
      const deadline = new Date(Date.now() + (this.options.deadlineMs ?? CHARGE_DEADLINE_MS));
      const decided = settlements.some((s) => s.idempotency || s.cost === 0)
        ? await this.db.transaction((tx) => settleBatch(tx, settlements, this.options, deadline))
        : await chargeBatch(this.db, settlements, deadline);
      this.commits++;
      this.settled += batch.length;
      batch.forEach((p, i) => p.resolve(decided[i]!));
    } catch (error) {
      for (const p of batch) p.reject(error);
    } finally {
      this.#inFlight--;
      this.#schedule();
    }
  }
}

type Tx = Parameters<Parameters<Database["transaction"]>[0]>[0];

/**
 * A batch of plain charges (no Idempotency-Key) in one statement: billing_charge_batch (migration 0194) locks
 * the tokens in id order, decides each charge in arrival order against the token's running balance, then
 * writes one debit per token and the charge rows and ledger entries as multi-row inserts. One round trip, one
 * durable commit.
 */
async function chargeBatch(db: Pick<Database, "query">, batch: readonly Settlement[], deadline: Date): Promise<Settled[]> {
  const ids = batch.map(() => newChargeId());
  const { rows } = await db.query<{ outcome: "charged" | "short" | "expired" | "late"; balance: string | null }>(
    `SELECT r.outcome, r.balance
       FROM billing_charge_batch($1::text[], $2::text[], $3::bigint[], $4::text[], $5::text[], $6::text[], $7::text[], $8::timestamptz)
            WITH ORDINALITY AS r(outcome, balance, ord)
      ORDER BY r.ord`,
    [ids, batch.map((s) => s.tokenId), batch.map((s) => s.cost), batch.map((s) => s.endpoint), batch.map((s) => s.requestHash), batch.map((s) => s.responseHash), batch.map((s) => s.receiptId), deadline],
    { prepareAs: "billing_charge_batch_v2" },
  );
  if (rows.length !== batch.length) throw new Error(`group commit: ${rows.length} outcomes for ${batch.length} charges`);
  if (rows.some((r) => r.outcome === "late")) throw new StateTooLate(`the state database took the batch's token rows after its deadline (${deadline.toISOString()}); nothing was charged`);
  return rows.map((r, i): Settled => {
    if (r.outcome === "charged") return { kind: "charged", balance: Number(r.balance), chargeId: ids[i]! };
    if (r.outcome === "short") return { kind: "short", balance: Number(r.balance) };
    return { kind: "expired" };
  });
}

const newChargeId = (): string => `hold_${randomHex(12)}`;

/** Steps 1–3 of a batch inside its transaction; returns the decisions in submission order. */
async function settleBatch(tx: Tx, batch: readonly Settlement[], options: GroupCommitOptions, deadline: Date): Promise<Settled[]> {
  const now = options.now?.() ?? new Date();
  const tokenIds = [...new Set(batch.map((s) => s.tokenId))];
  const { rows: tokenRows } = await tx.query<TokenRow>(
    `SELECT id, balance, (expires_at IS NULL OR expires_at > now()) AS live
       FROM tokens WHERE id = ANY($1::text[]) ORDER BY id FOR UPDATE`,
    [tokenIds],
    { prepareAs: "billing_lock_tokens" },
  );
  // As billing_charge_batch does: a batch that got its rows after its deadline writes nothing (the transaction rolls back).
  if (Date.now() > deadline.getTime()) throw new StateTooLate(`the token rows were taken after the batch's deadline (${deadline.toISOString()}); nothing was charged`);
  const balances = new Map(tokenRows.map((r) => [r.id, { balance: Number(r.balance), live: r.live }]));
  const stored = await readIdempotency(tx, batch);

  const decided: Settled[] = [];
  const charges: { id: string; s: Settlement }[] = [];
  const records: { s: Settlement; answer: { status: number; body: string } }[] = [];
  const claimed = new Set<string>();
  for (const s of batch) {
    const token = balances.get(s.tokenId);
    let settled: Settled;
    const keyId = s.idempotency ? `${s.tokenId}\n${s.idempotency.key}` : null;
    const earlier = keyId ? stored.get(keyId) : undefined;
    if (keyId && claimed.has(keyId)) {
      settled = { kind: "key_taken", stored: { requestHash: s.requestHash, endpoint: s.endpoint, state: "in_progress", status: null, body: null, createdAt: now } };
    } else if (earlier && bindsKey(earlier, now)) {
      settled = { kind: "key_taken", stored: earlier };
    } else if (!token || !token.live) {
      settled = { kind: "expired" };
    } else if (s.cost === 0) {
      settled = { kind: "free", balance: token.balance };
    } else if (token.balance < s.cost) {
      settled = { kind: "short", balance: token.balance };
    } else {
      token.balance -= s.cost;
      const id = newChargeId();
      charges.push({ id, s });
      settled = { kind: "charged", balance: token.balance, chargeId: id };
    }
    decided.push(settled);
    if (keyId && s.idempotency && settled.kind !== "key_taken") {
      claimed.add(keyId);
      const answer = s.idempotency.answer(settled);
      if (answer) records.push({ s, answer });
    }
  }
  if (charges.length > 0 || records.length > 0) await writeBatch(tx, charges, records, now);
  return decided;
}

/** The Idempotency-Key records the batch names, keyed by `token \n key`. */
async function readIdempotency(tx: Tx, batch: readonly Settlement[]): Promise<Map<string, StoredIdempotency>> {
  const keyed = batch.filter((s) => s.idempotency);
  const found = new Map<string, StoredIdempotency>();
  if (keyed.length === 0) return found;
  const { rows } = await tx.query<IdempotencyRow>(
    `SELECT token_id, idem_key, request_hash, endpoint, state, response_status, response_body, created_at
       FROM billing_idempotency
      WHERE (token_id, idem_key) IN (SELECT * FROM unnest($1::text[], $2::text[]))`,
    [keyed.map((s) => s.tokenId), keyed.map((s) => s.idempotency!.key)],
    { prepareAs: "billing_read_idempotency" },
  );
  for (const r of rows) {
    found.set(`${r.token_id}\n${r.idem_key}`, {
      requestHash: r.request_hash,
      endpoint: r.endpoint,
      state: r.state,
      status: r.response_status,
      body: r.response_body,
      createdAt: new Date(r.created_at),
    });
  }
  return found;
}

/** Step 3: every debit, charge row, ledger entry and Idempotency-Key record of the batch in one statement. */
async function writeBatch(
  tx: Tx,
  charges: readonly { id: string; s: Settlement }[],
  records: readonly { s: Settlement; answer: { status: number; body: string } }[],
  now: Date,
): Promise<void> {
  const { rows } = await tx.query<{ debited: string }>(
    `WITH c AS (
       SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[], $4::text[], $5::text[], $6::text[], $7::text[])
         AS c(id, token_id, cost, endpoint, request_hash, response_hash, receipt_id)
     ), per_token AS (
       SELECT token_id, SUM(cost)::bigint AS total FROM c GROUP BY token_id
     ), upd AS (
       UPDATE tokens t SET balance = t.balance - p.total FROM per_token p WHERE t.id = p.token_id
    RETURNING t.id
     ), h AS (
       INSERT INTO holds (id, token_id, cost, endpoint, request_hash, status, response_hash, receipt_id, settled_at)
       SELECT id, token_id, cost, endpoint, request_hash, 'committed', response_hash, receipt_id, now() FROM c
     ), led AS (
       INSERT INTO ledger (token_id, delta, reason, ref) SELECT token_id, -cost, 'hold', id FROM c
     ), idem AS (
       INSERT INTO billing_idempotency (token_id, idem_key, request_hash, endpoint, state, response_status, response_body, created_at, completed_at)
       SELECT token_id, idem_key, request_hash, endpoint, 'done', status, body, created_at, $15::timestamptz
         FROM unnest($8::text[], $9::text[], $10::text[], $11::text[], $12::int[], $13::text[], $14::timestamptz[])
           AS r(token_id, idem_key, request_hash, endpoint, status, body, created_at)
       ON CONFLICT (token_id, idem_key) DO UPDATE
          SET request_hash = EXCLUDED.request_hash, endpoint = EXCLUDED.endpoint, state = 'done',
              response_status = EXCLUDED.response_status, response_body = EXCLUDED.response_body,
              created_at = EXCLUDED.created_at, completed_at = EXCLUDED.completed_at
     )
     SELECT count(*) AS debited FROM upd`,
    [
      charges.map((c) => c.id),
      charges.map((c) => c.s.tokenId),
      charges.map((c) => c.s.cost),
      charges.map((c) => c.s.endpoint),
      charges.map((c) => c.s.requestHash),
      charges.map((c) => c.s.responseHash),
      charges.map((c) => c.s.receiptId),
      records.map((r) => r.s.tokenId),
      records.map((r) => r.s.idempotency!.key),
      records.map((r) => r.s.requestHash),
      records.map((r) => r.s.endpoint),
      records.map((r) => r.answer.status),
      records.map((r) => r.answer.body),
      records.map((r) => r.s.idempotency!.createdAt),
      now,
    ],
    { prepareAs: "billing_write_batch" },
  );
  const expected = new Set(charges.map((c) => c.s.tokenId)).size;
  if (Number(rows[0]?.debited ?? 0) !== expected) {
    throw new Error(`group commit: debited ${rows[0]?.debited ?? 0} token rows, expected ${expected}; the batch is rolled back`);
  }
}
