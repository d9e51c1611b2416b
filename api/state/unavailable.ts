/**
 * The one place that recognises "the state database cannot be reached" among the errors pg throws (refused or
 * reset connections, server shutdown 57P01–57P03, SQLSTATE class 08, pool connect timeouts, a terminated
 * client, a query that got no answer in time, a statement or lock time-out 57014 and 55P03) and the group
 * commit's {@link StateTooLate}, and turns it into 503 `state_unavailable` with Retry-After, never a 500.
 */
import { ApiError } from "../registry/types.ts";

/** Seconds a client is told to wait before retrying while the database is away. */
export const STATE_RETRY_AFTER_SECONDS = 5;

const NODE_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH", "ECONNABORTED"]);
const SQLSTATES = new Set(["57P01", "57P02", "57P03", "53300", "57014", "55P03"]);
const MESSAGES = [
  /timeout exceeded when trying to connect/i,
  /connection terminated/i,
  /not queryable/i,
  /Cannot use a pool after calling end/i,
  /the database system is (starting up|shutting down|in recovery mode)/i,
  /terminating connection due to administrator command/i,
  /Query read timeout/i,
];

/** A write the database reached after its deadline, when the caller may have stopped waiting: nothing was written. */
export class StateTooLate extends Error {
  override name = "StateTooLate";
  readonly code = "STATE_TOO_LATE";
}

/** True when `error` (or one of its causes) says the database connection is lost or cannot be made. */
export function isConnectionError(error: unknown): boolean {
  for (let e = error, depth = 0; e && depth < 5; depth++) {
    if (typeof e !== "object") return false;
    const { code, message, errors, cause } = e as { code?: unknown; message?: unknown; errors?: unknown; cause?: unknown };
    if (e instanceof StateTooLate) return true;
    if (typeof code === "string" && (NODE_CODES.has(code) || SQLSTATES.has(code) || /^08[0-9A-Z]{3}$/.test(code))) return true;
    if (typeof message === "string" && MESSAGES.some((m) => m.test(message))) return true;
    if (Array.isArray(errors) && errors.some((x) => isConnectionError(x))) return true;
    e = cause;
  }
  return false;
}

/** The 503 ApiError for a lost database, or undefined when `error` is something else. */
export function stateUnavailable(error: unknown): ApiError | undefined {
  if (error instanceof ApiError || !isConnectionError(error)) return undefined;
  return new ApiError(
    503,
    "state_unavailable",
    "the state database (credits, payments) cannot be reached right now; nothing was charged; retry shortly",
    { retry_after_seconds: STATE_RETRY_AFTER_SECONDS },
    { "Retry-After": String(STATE_RETRY_AFTER_SECONDS) },
  );
}
