/**
 * The credit ledger over Postgres. Bearer tokens are `afk_` + 64 lowercase hex (32 random bytes); only their
 * sha256 is stored. Every credit that moves is one ledger row written in the same statement as the balance
 * change, so balance = SUM(ledger.delta) for every token at every commit.
 */
import { createHash, randomBytes } from "node:crypto";
import type { CreditLedger, Database, Hold, Sql, TokenInfo } from "../state/types.ts";
import { randomHex } from "./random-ids.ts";

/** Prefix of every bearer token: recognisable in logs and secret scanners ("agentfeed key"). */
export const TOKEN_PREFIX = "afk_";

const TOKEN_PATTERN = /^afk_[0-9a-f]{64}$/;

/** last_used_at is refreshed at most this often per token, so lookups stay reads. */
const LAST_USED_RESOLUTION_MS = 60_000;

/** A ledger call with an impossible argument or state (unknown token or hold, settled hold, bad amount). */
export class CreditsError extends Error {
  override name = "CreditsError";
  constructor(
    message: string,
    readonly code: "bad_amount" | "unknown_token" | "unknown_hold" | "hold_settled",
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** sha256 hex of a bearer token: the only form in which tokens are stored. */
export const hashToken = (token: string): string => createHash("sha256").update(token).digest("hex");

/** True when `token` has the bearer token shape (`afk_` + 64 lowercase hex). */
export const isTokenFormat = (token: string): boolean => TOKEN_PATTERN.test(token);

const newId = (prefix: string): string => `${prefix}_${randomHex(12)}`;

const assertCredits = (value: number, what: string): void => {
  if (!Number.isSafeInteger(value) || value <= 0) {
    throw new CreditsError(`${what}: credits must be a positive integer, got ${value}`, "bad_amount");
  }
};

const iso = (value: unknown): string | null =>
  value === null || value === undefined ? null : new Date(value as string | Date).toISOString();

interface TokenRow extends Record<string, unknown> {
  id: string;
  kind: "paid" | "trial";
  wallet: string | null;
  balance: string;
  total_purchased: string;
  created_at: Date;
  last_used_at: Date | null;
  expires_at: Date | null;
}

interface HoldRow extends Record<string, unknown> {
  status: "held" | "committed" | "released";
  token_id: string;
}

/** The credit ledger on `db` (migrations 0001 applied). */
export function createCredits(db: Database): CreditLedger {
  const currentBalance = async (tokenId: string): Promise<number> => {
    const { rows } = await db.query<{ balance: string }>("SELECT balance FROM tokens WHERE id = $1", [tokenId]);
    if (!rows[0]) throw new CreditsError(`credits: unknown token ${tokenId}`, "unknown_token");
    return Number(rows[0].balance);
  };

  const holdState = async (holdId: string): Promise<HoldRow> => {
    const { rows } = await db.query<HoldRow>("SELECT status, token_id FROM holds WHERE id = $1", [holdId]);
    if (!rows[0]) throw new CreditsError(`credits: unknown hold ${holdId}`, "unknown_hold");
    return rows[0];
  };

  return {
    async mintToken(tx, options) {
      if (options.token !== undefined && !isTokenFormat(options.token)) throw new Error("mintToken: a given token must be the prefix and 64 hex characters");
      const token = options.token ?? `${TOKEN_PREFIX}${randomBytes(32).toString("hex")}`;
      const id = newId("tok");
      await tx.query(
        "INSERT INTO tokens (id, token_hash, kind, wallet, expires_at) VALUES ($1, $2, $3, $4, $5)",
        [id, hashToken(token), options.kind, options.wallet?.toLowerCase() ?? null, options.expiresAt ?? null],
      );
      return { token, id };
    },

    async tokenByBearer(token) {
      if (typeof token !== "string" || !isTokenFormat(token)) return undefined;
      const { rows } = await db.query<TokenRow>(
        `SELECT id, kind, wallet, balance, total_purchased, created_at, last_used_at, expires_at
           FROM tokens WHERE token_hash = $1`,
        [hashToken(token)],
      );
      const row = rows[0];
      if (!row) return undefined;
      const lastUsed = row.last_used_at ? new Date(row.last_used_at).getTime() : 0;
      if (Date.now() - lastUsed > LAST_USED_RESOLUTION_MS) {
        await db.query(
          `UPDATE tokens SET last_used_at = now()
            WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < now() - interval '60 seconds')`,
          [row.id],
        );
      }
      const info: TokenInfo = {
        id: row.id,
        kind: row.kind,
        balance: Number(row.balance),
        totalPurchased: Number(row.total_purchased),
        created: iso(row.created_at) ?? "",
        lastUsed: iso(row.last_used_at),
        expiresAt: iso(row.expires_at),
        wallet: row.wallet,
      };
      return info;
    },

    async grant(tx: Sql, tokenId, credits, entry) {
      assertCredits(credits, `grant(${tokenId}, ${entry.reason})`);
      // One statement: the balance change and its ledger row commit together even outside a transaction.
      const { rows } = await tx.query<{ balance: string }>(
        `WITH upd AS (
           UPDATE tokens
              SET balance = balance + $2::bigint,
                  total_purchased = total_purchased + CASE WHEN $3::text = 'purchase' THEN $2::bigint ELSE 0 END
            WHERE id = $1
        RETURNING id, balance
         ), led AS (
           INSERT INTO ledger (token_id, delta, reason, ref) SELECT id, $2::bigint, $3::text, $4::text FROM upd
         )
         SELECT balance FROM upd`,
        [tokenId, credits, entry.reason, entry.ref],
      );
      if (!rows[0]) throw new CreditsError(`grant: unknown token ${tokenId}`, "unknown_token");
      return Number(rows[0].balance);
    },

    async hold(tokenId, cost, charge): Promise<Hold | null> {
      assertCredits(cost, `hold(${tokenId})`);
      const holdId = newId("hold");
      // The conditional debit, the hold and its ledger row in one statement (one implicit transaction):
      // no row updated means short or expired, and then nothing at all is written.
      const { rows } = await db.query<{ balance: string }>(
        `WITH upd AS (
           UPDATE tokens SET balance = balance - $2::bigint
            WHERE id = $1 AND balance >= $2::bigint AND (expires_at IS NULL OR expires_at > now())
        RETURNING id, balance
         ), h AS (
           INSERT INTO holds (id, token_id, cost, endpoint, request_hash)
           SELECT $3::text, id, $2::bigint, $4::text, $5::text FROM upd
         ), led AS (
           INSERT INTO ledger (token_id, delta, reason, ref) SELECT id, -$2::bigint, 'hold', $3::text FROM upd
         )
         SELECT balance FROM upd`,
        [tokenId, cost, holdId, charge.endpoint, charge.requestHash],
      );
      if (!rows[0]) return null;
      return { holdId, balance: Number(rows[0].balance) };
    },

    async commit(holdId, outcome) {
      const result = await db.query(
        `UPDATE holds SET status = 'committed', response_hash = $2, receipt_id = $3, settled_at = now()
          WHERE id = $1 AND status = 'held'`,
        [holdId, outcome.responseHash, outcome.receiptId ?? null],
      );
      if (result.rowCount === 1) return;
      const state = await holdState(holdId);
      if (state.status === "committed") return; // already kept: committing again charges nothing more
      throw new CreditsError(`commit: hold ${holdId} was already released; nothing was charged`, "hold_settled");
    },

    async release(holdId, reason) {
      const { rows } = await db.query<{ balance: string }>(
        `WITH h AS (
           UPDATE holds SET status = 'released', reason = $2, settled_at = now()
            WHERE id = $1 AND status = 'held'
        RETURNING token_id, cost
         ), upd AS (
           UPDATE tokens t SET balance = t.balance + h.cost FROM h WHERE t.id = h.token_id
        RETURNING t.id, t.balance
         ), led AS (
           INSERT INTO ledger (token_id, delta, reason, ref) SELECT token_id, cost, 'release', $1 FROM h
         )
         SELECT balance FROM upd`,
        [holdId, reason],
      );
      if (rows[0]) return { balance: Number(rows[0].balance) };
      const state = await holdState(holdId);
      if (state.status === "released") return { balance: await currentBalance(state.token_id) };
      throw new CreditsError(`release: hold ${holdId} was already committed; it cannot be given back`, "hold_settled");
    },

    async releaseStaleHolds(olderThanSeconds) {
      if (!Number.isFinite(olderThanSeconds) || olderThanSeconds < 0) {
        throw new CreditsError(`releaseStaleHolds: bad age ${olderThanSeconds}`, "bad_amount");
      }
      const { rows } = await db.query<{ released: string }>(
        `WITH h AS (
           UPDATE holds SET status = 'released', reason = 'stale', settled_at = now()
            WHERE status = 'held' AND created_at < now() - make_interval(secs => $1::double precision)
        RETURNING id, token_id, cost
         ), per_token AS (
           SELECT token_id, SUM(cost)::bigint AS total FROM h GROUP BY token_id
         ), upd AS (
           UPDATE tokens t SET balance = t.balance + p.total FROM per_token p WHERE t.id = p.token_id
         ), led AS (
           INSERT INTO ledger (token_id, delta, reason, ref) SELECT token_id, cost, 'release', id FROM h
         )
         SELECT count(*) AS released FROM h`,
        [olderThanSeconds],
      );
      return Number(rows[0]?.released ?? 0);
    },

    async ledgerSum(tokenId) {
      const { rows } = await db.query<{ sum: string }>(
        "SELECT COALESCE(SUM(delta), 0)::bigint AS sum FROM ledger WHERE token_id = $1",
        [tokenId],
      );
      return Number(rows[0]?.sum ?? 0);
    },
  };
}
