/**
 * The one error type the shared HTTP client throws, with a machine-readable `code`.
 */

/** Why a request through the shared client failed. */
export type HttpErrorCode =
  | "timeout"
  | "http_status"
  | "too_large"
  | "wrong_content_type"
  | "malformed_body"
  | "circuit_open"
  | "network"
  | "replay_missing";

export interface HttpErrorInit {
  code: HttpErrorCode;
  url: string;
  status?: number;
  cause?: unknown;
  /** Delay the server asked for (Retry-After on 429/503), in milliseconds. */
  retryAfterMs?: number;
}

/** A failed request through the shared client; `url` is always the original upstream URL. */
export class HttpError extends Error {
  override readonly name = "HttpError";
  readonly code: HttpErrorCode;
  readonly url: string;
  readonly status?: number;
  readonly retryAfterMs?: number;

  constructor(message: string, init: HttpErrorInit) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.code = init.code;
    this.url = init.url;
    if (init.status !== undefined) this.status = init.status;
    if (init.retryAfterMs !== undefined) this.retryAfterMs = init.retryAfterMs;
  }
}

/** True for failures worth another attempt: network errors, timeouts, 5xx and 429. */
export function isRetryable(error: unknown): boolean {
  if (!(error instanceof HttpError)) return false;
  if (error.code === "network" || error.code === "timeout") return true;
  if (error.code === "http_status" && error.status !== undefined) {
    return error.status === 429 || error.status >= 500;
  }
  return false;
}
