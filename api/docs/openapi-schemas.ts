/**
 * The shapes every route shares on the wire, as zod schemas for the OpenAPI document: the error body, the 402
 * of a premium call (x402 challenge or insufficient credits, see api/billing/x402.ts and premium.ts), and the
 * billing block and receipt every premium success carries. The end-to-end contract tests hold real answers
 * against them, so a change in what the service sends fails there until the schema follows.
 */
import { z } from "zod";
import { Receipt } from "../billing/receipts.ts";

/**
 * The error body every 4xx/5xx carries. Open to extra detail fields (issues, billing of a no-charge, retry
 * hints …): `{ ok: false, error, message, ...details }`.
 */
export const ErrorSchema = z
  .looseObject({
    ok: z.literal(false),
    error: z.string().meta({ description: "Machine-readable code, e.g. invalid_query, not_found, rate_limited." }),
    message: z.string(),
    issues: z
      .array(z.object({ path: z.string(), code: z.string(), message: z.string() }))
      .optional()
      .meta({ description: "Present on invalid_query / invalid_params / invalid_body: at most 20, each message and path at most 300 characters." }),
    more_issues: z.number().int().positive().optional().meta({ description: "How many issues past the first 20 are not listed." }),
  })
  .meta({ id: "Error", description: "Every error answer: ok false, a machine-readable code, a sentence; some codes add detail fields." });

/** One x402 v2 payment requirement (the `accepts` entries). */
export const PaymentRequirementSchema = z
  .looseObject({
    scheme: z.literal("exact"),
    network: z.string().meta({ description: "CAIP-2 chain id, e.g. eip155:8453." }),
    amount: z.string().regex(/^\d+$/).meta({ description: "USDC base units (6 decimals) for this call." }),
    asset: z.string().meta({ description: "USDC contract address." }),
    payTo: z.string().meta({ description: "Publisher wallet." }),
    maxTimeoutSeconds: z.number().int(),
    extra: z.looseObject({ name: z.string(), version: z.string() }).meta({ description: "EIP-712 domain of the USDC contract." }),
  })
  .meta({ id: "PaymentRequirement" });

/** The 402 of a premium call without a valid credential: an x402 v2 PaymentRequired plus this service's quote flow. */
export const PaymentChallengeSchema = z
  .looseObject({
    ok: z.literal(false),
    error: z.literal("payment_required"),
    message: z.string(),
    x402Version: z.literal(2),
    resource: z.looseObject({ url: z.string(), description: z.string(), mimeType: z.string() }),
    accepts: z.array(PaymentRequirementSchema).meta({ description: "Empty when payments are not configured on this instance." }),
    extensions: z.record(z.string(), z.unknown()),
    quote_flow: z
      .looseObject({ available: z.boolean() })
      .meta({ description: "How to pay here: buy-credits quote → USDC transfer → retry with X-Payment-Tx and X-Payment-Quote (available false when payments are off)." }),
  })
  .meta({ id: "PaymentChallenge" });

/** The 402 of a premium call whose token holds fewer credits than the call costs. */
export const InsufficientCreditsSchema = z
  .looseObject({
    ok: z.literal(false),
    error: z.literal("insufficient_credits"),
    message: z.string(),
    balance: z.number().int(),
    cost_credits: z.number().int(),
    buy_credits: z.string(),
    payment_info: z.string(),
  })
  .meta({ id: "InsufficientCredits" });

/** Either 402 body. */
export const PaymentRequiredSchema = z.union([PaymentChallengeSchema, InsufficientCreditsSchema]);

/** The billing block of a premium answer (charged, or not charged with a named reason). */
export const BillingSchema = z
  .strictObject({
    credits_charged: z.number().int().nonnegative(),
    credits_remaining: z.number().int().nonnegative(),
    no_charge_reason: z.string().optional().meta({ description: "Why nothing was charged (see /.well-known/agent-fair-trade.json)." }),
    no_charge_detail: z.string().optional(),
  })
  .meta({ id: "Billing" });

/** The signed receipt of a premium answer (verify with /api/receipt/verify or the key at /.well-known/receipt-key.json). */
export const ReceiptSchema = Receipt.meta({ id: "Receipt" });
