/**
 * The state contracts: a Postgres database (embedded by default, a server when DATABASE_URL is set) and the
 * credit ledger every paid path goes through. Money is integers: credits as integers, USDC in base units
 * (6 decimals) as bigint-safe integers.
 */

/** Something that runs SQL: the pool, or one transaction's client. */
export interface Sql {
  query<R extends Record<string, unknown> = Record<string, unknown>>(
    text: string,
    params?: readonly unknown[],
    options?: QueryOptions,
  ): Promise<{ rows: R[]; rowCount: number }>;
}

/** How a statement is sent. */
export interface QueryOptions {
  /**
   * Keep the statement prepared under this name on each connection that runs it, so the server parses and
   * plans it once per connection instead of on every call (for the hot paths' fixed statements; one name, one
   * text).
   */
  prepareAs?: string;
}

/** The opened database with migrations applied. */
export interface Database extends Sql {
  /** Run `fn` in one transaction (BEGIN … COMMIT, ROLLBACK on throw). */
  transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T>;
  /** embedded: a Postgres server this process started in DATA_DIR; server: DATABASE_URL. */
  readonly kind: "embedded" | "server";
  /** Where the state lives, for the start line: the cluster folder, or the server's host/port/database (never a password). */
  readonly where: string;
  close(): Promise<void>;
}

/** What a bearer token is, as the billing code sees it (the token itself is never stored, only its hash). */
export interface TokenInfo {
  id: string;
  kind: "paid" | "trial";
  balance: number;
  totalPurchased: number;
  created: string;
  lastUsed: string | null;
  /** Trial tokens expire (30 days); paid tokens never. */
  expiresAt: string | null;
  /** Wallet that paid for or claimed the token, lower case. */
  wallet: string | null;
}

/** Why credits moved; one ledger entry per movement. */
export type LedgerReason = "purchase" | "bonus" | "trial" | "hold" | "release";

/** A held charge: the cost is already off the balance; commit keeps it, release gives it back. */
export interface Hold {
  holdId: string;
  balance: number;
}

/** The credit ledger. Balances change only through ledger entries inside one transaction. */
export interface Credits {
  /** Create a token (prefix + 64 hex), store its hash, return the plain token once. */
  mintToken(tx: Sql, options: { kind: "paid" | "trial"; wallet?: string; expiresAt?: Date; /** The token to store (prefix + 64 hex) instead of a random one. */ token?: string }): Promise<{ token: string; id: string }>;
  /** Look a bearer token up by its hash; undefined when unknown or malformed. Expired trials come back with expiresAt in the past. */
  tokenByBearer(token: string): Promise<TokenInfo | undefined>;
  /** Add credits (purchase, bonus, trial) as a ledger entry; returns the new balance. */
  grant(tx: Sql, tokenId: string, credits: number, entry: { reason: "purchase" | "bonus" | "trial"; ref: string }): Promise<number>;
  /** Take `cost` off the balance if it is there (conditional update) and record the hold; null when short. */
  hold(tokenId: string, cost: number, charge: { endpoint: string; requestHash: string }): Promise<Hold | null>;
  /** Keep a held charge (the call succeeded). */
  commit(holdId: string, outcome: { responseHash: string; receiptId?: string }): Promise<void>;
  /** Give a held charge back (no charge: 5xx, breaker, schema failure, stale data, documented no-charge case). */
  release(holdId: string, reason: string): Promise<{ balance: number }>;
}

/** The credit ledger with its maintenance calls (crash recovery, audits); what createCredits returns. */
export interface CreditLedger extends Credits {
  /** Release every hold still `held` after `olderThanSeconds` (its process died before answering); returns how many. */
  releaseStaleHolds(olderThanSeconds: number): Promise<number>;
  /** SUM(ledger.delta) of a token: equals its balance at every moment (the ledger invariant). */
  ledgerSum(tokenId: string): Promise<number>;
}
