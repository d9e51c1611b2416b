/** The one shape of every error body: `{ ok: false, error, message, ...details }`, never a stack trace. */
import { ZodError } from "zod";
import { ApiError } from "../registry/types.ts";
import { stateUnavailable } from "../state/unavailable.ts";
import { clip } from "./clip.ts";

/** JSON error body as sent on the wire. */
export interface ErrorBody {
  ok: false;
  error: string;
  message: string;
  [key: string]: unknown;
}

/** Build an error body. */
export function errorBody(code: string, message: string, details?: Record<string, unknown>): ErrorBody {
  // A backstop: echo sites clip client input to 200 characters (clip.ts); no message grows past this.
  return { ...details, ok: false, error: code, message: message.length > 1000 ? `${message.slice(0, 999)}…` : message };
}

/** Most issues an invalid-input answer lists; the rest are counted in `more_issues`. */
export const MAX_LISTED_ISSUES = 20;
/** Longest issue message and path in characters: schema messages can quote the value sent. */
const ISSUE_TEXT_MAX = 300;

/** Turn a zod failure on one input part into a 400 ApiError with the issues listed. */
export function invalidInput(part: "query" | "params" | "body", err: ZodError): ApiError {
  const issues = err.issues.slice(0, MAX_LISTED_ISSUES).map((i) => ({ path: clip(i.path.map(String).join("."), ISSUE_TEXT_MAX), code: i.code, message: clip(i.message, ISSUE_TEXT_MAX) }));
  const first = issues[0];
  const message = first ? `${part} ${first.path || "(root)"}: ${first.message}` : `invalid ${part}`;
  const more = err.issues.length - issues.length;
  return new ApiError(400, `invalid_${part}`, message, { issues, ...(more > 0 ? { more_issues: more } : {}) });
}

/** Map anything thrown by a handler to a status and body; unknown errors become a bare 500. */
export function toErrorParts(err: unknown): { status: number; body: ErrorBody; headers?: Record<string, string> } {
  if (err instanceof ApiError) {
    const status = err.status >= 400 && err.status <= 599 ? err.status : 500;
    // After a 413 the rest of the upload is not read: the connection is closed instead.
    const headers = status === 413 ? { Connection: "close" } : err.headers;
    return { status, body: errorBody(err.code, err.message, err.details), ...(headers ? { headers } : {}) };
  }
  const lost = stateUnavailable(err);
  if (lost) return toErrorParts(lost);
  if (err instanceof ZodError) return toErrorParts(invalidInput("query", err));
  return { status: 500, body: errorBody("internal_error", "the server failed to answer this request") };
}
