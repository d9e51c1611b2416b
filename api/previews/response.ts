/**
 * The shape every preview answer shares: `ok: true`, `preview: true`, the preview's own fields, then
 * `rate_limit { limit, remaining, scope }` and `upgrade { premium_endpoint, payment_info, buy_credits,
 * preview_shows }`, plus RateLimit-* headers (the IETF draft's separate fields, as on the free routes).
 */
import { z } from "zod";
import type { PreviewSpec } from "./catalog.ts";
import { PREVIEW_SCOPE, previewPolicy, type PreviewAllowance, upgradeHint } from "./quota.ts";

/** A preview body: the fields a preview computed, wrapped with its quota and upgrade hint. */
export type PreviewBody<T extends Record<string, unknown>> = { ok: true; preview: true } & T & {
  rate_limit: { limit: number; remaining: number; scope: string };
  upgrade: ReturnType<typeof upgradeHint>;
};

/** Fields the wrapper owns; a preview's own fields may not use these names. */
const RESERVED = ["ok", "preview", "rate_limit", "upgrade"] as const;

/** Wrap a preview's fields with `ok`, `preview`, `rate_limit` and `upgrade`; throws when the fields use a reserved name. */
export function previewBody<T extends Record<string, unknown>>(fields: T, preview: PreviewSpec, allowance: PreviewAllowance): PreviewBody<T> {
  const clash = RESERVED.find((name) => Object.hasOwn(fields, name));
  if (clash) throw new Error(`preview ${preview.route}: its fields may not set "${clash}"`);
  return {
    ok: true,
    preview: true,
    ...fields,
    rate_limit: { limit: allowance.limit, remaining: allowance.remaining, scope: PREVIEW_SCOPE },
    upgrade: upgradeHint(preview),
  };
}

/** RateLimit-* headers of an admitted call. */
export function previewHeaders(allowance: PreviewAllowance): Record<string, string> {
  return {
    "RateLimit-Limit": String(allowance.limit),
    "RateLimit-Remaining": String(allowance.remaining),
    "RateLimit-Reset": String(allowance.resetSeconds),
    "RateLimit-Policy": previewPolicy(allowance.limit),
  };
}

/**
 * The OpenAPI/zod schema of a preview answer: the preview's own fields between the wrapper's. Every preview
 * route declares its `response` with this, so the documents show the quota and upgrade blocks.
 */
export function previewResponse<T extends z.ZodRawShape>(fields: T) {
  return z.strictObject({
    ok: z.literal(true),
    preview: z.literal(true),
    ...fields,
    rate_limit: z
      .strictObject({ limit: z.number().int().min(1), remaining: z.number().int().min(0), scope: z.literal(PREVIEW_SCOPE) })
      .meta({ description: "The daily quota of this preview for the calling client (IP, IPv6 /64) after this call." }),
    upgrade: z
      .strictObject({ premium_endpoint: z.string(), payment_info: z.string(), buy_credits: z.string(), preview_shows: z.string() })
      .meta({ description: "Where the full answer is and how to pay for it." }),
  });
}
