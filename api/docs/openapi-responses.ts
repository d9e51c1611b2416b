/**
 * The responses and security of one operation in the OpenAPI document, derived from its registry entry alone:
 * tier (rate limit, 402 and billing for premium, 503 for payments), inputs (400, 413/415 for bodies, 404 for
 * path parameters), snapshots (503), `bearer` (401) and the route's own `errors`. Every 4xx the service can
 * send is covered: the statuses named here, and a 4XX range with the error body for the rest.
 */
import { z } from "zod";
import type { ZodOpenApiOperationObject, ZodOpenApiResponseObject } from "zod-openapi";
import type { RouteDef } from "../registry/types.ts";
import { X402_HEADERS } from "../billing/x402.ts";
import { BillingSchema, ErrorSchema, PaymentRequiredSchema, ReceiptSchema } from "./openapi-schemas.ts";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyRoute = RouteDef<any, any, any>;

/** Names of the security schemes in components.securitySchemes. */
export const SECURITY = { bearer: "bearer", paymentTx: "x402PaymentTx", paymentQuote: "x402PaymentQuote", paymentSignature: "x402PaymentSignature" } as const;

/** Tiers behind the per-IP limit (RATE_LIMIT_PER_MINUTE); see api/app.ts. */
const LIMITED_TIERS = new Set(["discovery", "free", "preview"]);

/** Document options that depend on how the instance runs. */
export interface ResponseOptions {
  /** PREMIUM_BILLING: when off, premium routes need no credential and carry no billing or receipt. */
  premiumBilling: boolean;
}

type Header = { description: string; required?: boolean; schema: Record<string, unknown> };

const text = (description: string): Header => ({ description, schema: { type: "string" } });
const seconds = (description: string, required = false): Header => ({ description, required, schema: { type: "integer", minimum: 0 } });

const RATE_HEADERS: Record<string, Header> = {
  "RateLimit-Limit": seconds("Requests allowed per window (absent when the instance runs without a limit)."),
  "RateLimit-Remaining": seconds("Requests left in the current window."),
  "RateLimit-Reset": seconds("Seconds until the window resets."),
  "RateLimit-Policy": text("`<limit>;w=60` (the per-minute limit); on a free preview its daily quota first, `<limit>;w=86400, <limit>;w=60`, and Limit, Remaining and Reset describe whichever has fewer calls left."),
};

/** An error answer with the shared body. */
function errorResponse(description: string, headers?: Record<string, Header>): ZodOpenApiResponseObject {
  return { description, ...(headers ? { headers } : {}), content: { "application/json": { schema: ErrorSchema } } };
}

/** The success schema: premium answers add the billing block and the receipt to the route's own body. */
function successSchema(route: AnyRoute, opts: ResponseOptions): z.ZodType {
  if (route.tier !== "premium" || !opts.premiumBilling) return route.response;
  const paid = { billing: BillingSchema, receipt: ReceiptSchema };
  return route.response instanceof z.ZodObject ? route.response.extend(paid) : z.intersection(route.response, z.looseObject(paid));
}

/** Whether the route is served static-first (ETag, 304): a GET with `render` outside the premium wrapper. */
function cachedGet(route: AnyRoute): boolean {
  return Boolean(route.render) && route.method === "GET" && route.tier !== "premium";
}

/** Headers of a 200. */
function successHeaders(route: AnyRoute, premium: boolean): Record<string, Header> {
  const headers: Record<string, Header> = {};
  if (cachedGet(route) || route.byteRanges) headers.ETag = text("Strong validator; send it back in If-None-Match for a 304.");
  if (route.byteRanges) {
    headers["Accept-Ranges"] = text("`bytes`: ask for a part of the file with a Range header.");
    headers["Last-Modified"] = text("When the file was written.");
  }
  if (LIMITED_TIERS.has(route.tier)) Object.assign(headers, RATE_HEADERS);
  if (premium) {
    headers[X402_HEADERS.token] = text("The bearer token the credits of an x402 retry (X-Payment-Tx + X-Payment-Quote) or an exact payment were put on.");
    headers[X402_HEADERS.response] = text("x402 settlement answer of an exact payment (PAYMENT-SIGNATURE): base64 JSON { success, transaction, network, payer }.");
    headers["Idempotent-Replayed"] = text("`true` when this is the stored answer of an earlier call with the same Idempotency-Key.");
  }
  return headers;
}

/** The responses of one route. */
export function responsesOf(route: AnyRoute, opts: ResponseOptions): ZodOpenApiOperationObject["responses"] {
  const contentType = route.contentType ?? "application/json";
  const premium = route.tier === "premium" && opts.premiumBilling;
  const limited = LIMITED_TIERS.has(route.tier);
  const hasInput = Boolean(route.query || route.params || route.body);
  const responses: ZodOpenApiOperationObject["responses"] = {
    "200": {
      description: premium ? `${route.summary} Carries billing and a signed receipt, also when nothing was charged.` : route.summary,
      headers: successHeaders(route, premium),
      content: { [contentType]: { schema: successSchema(route, opts) } },
    },
  };
  if (cachedGet(route) || route.byteRanges) responses["304"] = { description: "Not modified (If-None-Match matched the ETag)." };
  if (route.byteRanges) {
    responses["206"] = {
      description: "Partial content: the one byte range a `Range: bytes=…` header asked for (unless If-Range no longer matches).",
      headers: { ...successHeaders(route, premium), "Content-Range": { ...text("`bytes <first>-<last>/<size>`."), required: true } },
      content: { [contentType]: { schema: successSchema(route, opts) } },
    };
    responses["416"] = errorResponse("range_not_satisfiable: the Range header names no byte of the file.", {
      "Content-Range": { ...text("`bytes */<size>`."), required: true },
    });
  }
  if (hasInput || premium) {
    const what = [route.query && "query", route.params && "path parameters", route.body && "JSON body", premium && "payment or Idempotency-Key headers"].filter(Boolean);
    responses["400"] = errorResponse(`Invalid ${what.join(", ")} (invalid_query, invalid_params, invalid_body … with issues).`);
  }
  if (route.bearer) responses["401"] = errorResponse("invalid_token / token_expired: the bearer token is missing, unknown or expired.");
  if (premium) {
    responses["402"] = {
      description:
        "payment_required: no valid credential (the x402 challenge, before any parameter check; the PAYMENT-REQUIRED header carries the x402 PaymentRequired object as base64 JSON), or insufficient_credits: the token holds less than the call costs.",
      headers: { [X402_HEADERS.required]: text("Base64 of the x402 v2 PaymentRequired JSON (on payment_required).") },
      content: { "application/json": { schema: PaymentRequiredSchema } },
    };
  }
  if (route.params) responses["404"] = errorResponse("No data for these path parameters (e.g. snapshot_not_found).");
  if (premium) {
    responses["409"] = errorResponse("idempotency_key_reused (another request used this Idempotency-Key), or idempotency_in_progress (retry after Retry-After).", {
      "Retry-After": seconds("Seconds to wait (idempotency_in_progress)."),
    });
  }
  if (route.body) {
    responses["413"] = errorResponse("The request body is larger than the service accepts.");
    responses["415"] = errorResponse("The request body is not application/json.");
  }
  for (const [status, when] of Object.entries(route.errors ?? {})) {
    const previous = responses[status as "400"] as { description?: string; headers?: Record<string, Header> } | undefined;
    responses[status as "400"] = errorResponse(previous?.description ? `${previous.description} ${when}` : when, previous?.headers);
  }
  responses["429"] = limited
    ? errorResponse("rate_limited: more requests from this IP than RATE_LIMIT_PER_MINUTE allows.", { ...RATE_HEADERS, "Retry-After": seconds("Seconds until a request is allowed again.", true) })
    : errorResponse(
        route.tier === "premium"
          ? "breaker_open: a per-token breaker (identical requests, burn rate) refused the call; nothing was charged."
          : "Too many payment requests from this client.",
        { "Retry-After": seconds("Seconds until a request is allowed again.", true) },
      );
  responses["4XX"] = errorResponse("Any other client error (e.g. bad_request for a malformed URL); the body names the code.");
  responses["500"] = errorResponse("internal_error (premium: schema_failure or internal_error, with billing showing nothing was charged).");
  const unavailable = [
    route.snapshots?.length && "snapshot_unavailable (a snapshot this route reads is missing)",
    route.tier === "payment" && "payments_not_configured, chain_unavailable or chain_mismatch",
    route.tier === "premium" && "premium_unavailable (no billing database), snapshot_unavailable",
    (route.tier === "payment" || route.tier === "premium") && "state_unavailable (the state database is unreachable)",
  ].filter(Boolean);
  if (unavailable.length > 0) {
    responses["503"] = errorResponse(`Temporarily unavailable: ${unavailable.join("; ")}.`, { "Retry-After": seconds("Seconds to wait before retrying, when known.") });
  }
  return responses;
}

/** The security requirements of one route (absent: none needed). */
export function securityOf(route: AnyRoute, opts: ResponseOptions): ZodOpenApiOperationObject["security"] {
  if (route.tier === "premium" && opts.premiumBilling) {
    return [{ [SECURITY.bearer]: [] }, { [SECURITY.paymentTx]: [], [SECURITY.paymentQuote]: [] }, { [SECURITY.paymentSignature]: [] }];
  }
  if (route.bearer === "required") return [{ [SECURITY.bearer]: [] }];
  if (route.bearer === "optional") return [{}, { [SECURITY.bearer]: [] }];
  return undefined;
}

/** components.securitySchemes. */
export const SECURITY_SCHEMES = {
  [SECURITY.bearer]: {
    type: "http",
    scheme: "bearer",
    description: "A token from POST /api/payment/confirm, POST /api/payment/trial-credits or an x402 retry (X-Payment-Token).",
  },
  [SECURITY.paymentTx]: {
    type: "apiKey",
    in: "header",
    name: X402_HEADERS.tx,
    description: "x402 retry: hash of the USDC transfer that paid a quote (with X-Payment-Quote).",
  },
  [SECURITY.paymentQuote]: {
    type: "apiKey",
    in: "header",
    name: X402_HEADERS.quote,
    description: "x402 retry: the memo of the quote the transfer paid (with X-Payment-Tx).",
  },
  [SECURITY.paymentSignature]: {
    type: "apiKey",
    in: "header",
    name: X402_HEADERS.signature,
    description:
      "Standard x402 v2 `exact` payment of this one call (when the 402 offers it): base64 JSON of the payment payload, an EIP-3009 transferWithAuthorization of accepts[0].amount signed by the payer. Settled only when the call is charged; the answer carries PAYMENT-RESPONSE.",
  },
} as const;
