/**
 * OpenRouter model list — `GET https://openrouter.ai/api/v1/models` (docs: https://openrouter.ai/docs/api-reference/list-available-models).
 * Public, no key; one request per run, read hourly by the pricing feed to cross-check curated prices.
 * Prices arrive as USD per token in decimal strings ("0.0000025"); "-1" marks a variable price (routers)
 * and "0" a free variant. We turn them into USD per 1M tokens with exact decimal shifting.
 * Names and modalities are outside text: sanitized and clipped by cleanLabel, as the endpoint labels are;
 * a model listed without a usable name (null, absent, nothing printable) is kept under its id.
 */
import { z } from "zod";
import { sanitize } from "../lib/sanitize.ts";
import { pastTime } from "../lib/time.ts";
import type { Source } from "../lib/types.ts";

export { OPENROUTER_MODELS_URL } from "../contract/snapshots/aggregator-models.ts";

const priceString = z.union([z.string(), z.number()]).optional().nullable();

/** One upstream entry as we accept it (tolerant: unknown fields pass, most fields optional). */
const UpstreamModel = z.looseObject({
  id: z.string().min(1),
  // `null` is kept: normalize falls back on the id, so the model is not lost over a missing name.
  name: z.string().nullish(),
  created: z.number().optional().nullable(),
  context_length: z.number().optional().nullable(),
  architecture: z
    .looseObject({
      modality: z.string().optional().nullable(),
      input_modalities: z.array(z.string()).optional().nullable(),
      output_modalities: z.array(z.string()).optional().nullable(),
    })
    .optional()
    .nullable(),
  pricing: z
    .looseObject({
      prompt: priceString,
      completion: priceString,
    })
    .optional()
    .nullable(),
  top_provider: z
    .looseObject({
      context_length: z.number().optional().nullable(),
      max_completion_tokens: z.number().optional().nullable(),
    })
    .optional()
    .nullable(),
});

type UpstreamModel = z.infer<typeof UpstreamModel>;

const UpstreamBody = z.looseObject({ data: z.array(z.unknown()) });

/** What `parse` returns: the entries it could read, and how many it had to skip. */
export interface OpenRouterParsed {
  models: UpstreamModel[];
  skipped: number;
}

/** Longest model name kept (UTF-16 units, ellipsis included); listed names are well under 80. */
export const MODEL_NAME_MAX = 120;
/** Longest modality kept ("text", "image", "text+image->text" …). */
export const MODALITY_MAX = 40;

/**
 * A model name or modality string as outside text: markup, controls and bidi overrides removed, injection phrases
 * filtered, clipped to `maxLength`; null when nothing printable is left. Names are not prose, so they are read as
 * HTML like the endpoint labels: a tag in a name is markup, never a word.
 */
export function cleanLabel(value: string | null | undefined, maxLength: number): string | null {
  if (typeof value !== "string") return null;
  const text = sanitize(value, { maxLength });
  return text === "" ? null : text;
}

/** Modalities as clean, distinct, sorted labels. */
function modalities(values: readonly string[] | null | undefined): string[] {
  return [...new Set((values ?? []).map((v) => cleanLabel(v, MODALITY_MAX)).filter((v): v is string => v !== null))].sort();
}

/** One aggregator listing, normalized (prices in USD per 1M tokens; null when unpriced or variable). */
export const OpenRouterRowSchema = z.strictObject({
  aggregatorId: z.string().min(1),
  name: z.string().min(1).max(MODEL_NAME_MAX),
  /** YYYY-MM-DD of the listing's `created` time, or null. */
  created: z.iso.date().nullable(),
  contextWindow: z.number().int().positive().nullable(),
  maxOutput: z.number().int().positive().nullable(),
  inputPer1M: z.number().nonnegative().nullable(),
  outputPer1M: z.number().nonnegative().nullable(),
  inputModalities: z.array(z.string().min(1).max(MODALITY_MAX)),
  outputModalities: z.array(z.string().min(1).max(MODALITY_MAX)),
});

export type OpenRouterRow = z.infer<typeof OpenRouterRowSchema>;

/** Error thrown when the body is not an OpenRouter model list. */
export class OpenRouterParseError extends Error {
  override name = "OpenRouterParseError";
}

/** Round to 6 decimals, removing binary float noise (0.1 + 0.2 style) from computed prices. */
export function round6(n: number): number {
  return Math.round(n * 1e6) / 1e6;
}

/**
 * USD per token (a decimal string or number) → USD per 1M tokens, rounded to 6 decimals. Plain decimal
 * strings are shifted as text, so "0.0000025" gives exactly 2.5. Negative values (the "-1" of variable-price
 * routers), empty strings and non-numbers give null.
 */
export function perTokenToPer1M(value: string | number | null | undefined): number | null {
  if (value === null || value === undefined) return null;
  const text = String(value).trim();
  const plain = /^(\d*)(?:\.(\d*))?$/.exec(text);
  if (plain && (plain[1] || plain[2])) {
    const int = plain[1] || "0";
    const frac = (plain[2] ?? "").padEnd(6, "0");
    return round6(Number(`${int}${frac.slice(0, 6)}.${frac.slice(6) || "0"}`));
  }
  const n = Number(text);
  if (text === "" || !Number.isFinite(n) || n < 0) return null;
  return round6(n * 1_000_000);
}

function positiveInt(n: number | null | undefined): number | null {
  return typeof n === "number" && Number.isInteger(n) && n > 0 ? n : null;
}

/**
 * YYYY-MM-DD of a listing's `created` (Unix seconds, as the API documents). A value that is not a time in
 * 1990 … fetch time + 1 day (a millisecond or microsecond number, a far-future time) gives null: the model
 * is kept, only its listing date is unknown.
 */
function dateOf(unixSeconds: number | null | undefined, now: Date): string | null {
  return pastTime(unixSeconds, now)?.slice(0, 10) ?? null;
}

/** The OpenRouter model-list source. */
export const openrouter = {
  id: "openrouter",
  description: "OpenRouter GET /api/v1/models (https://openrouter.ai/docs): cross-provider model list, public, read hourly",
  parse(body: string): OpenRouterParsed {
    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch (cause) {
      throw new OpenRouterParseError(`openrouter: body is not JSON (starts ${JSON.stringify(body.slice(0, 40))})`, {
        cause,
      });
    }
    const top = UpstreamBody.safeParse(json);
    if (!top.success) {
      throw new OpenRouterParseError(`openrouter: body has no data[] array: ${top.error.message}`, { cause: top.error });
    }
    const models: UpstreamModel[] = [];
    let skipped = 0;
    for (const item of top.data.data) {
      const m = UpstreamModel.safeParse(item);
      if (m.success) models.push(m.data);
      else skipped++;
    }
    return { models, skipped };
  },
  normalize(parsed: OpenRouterParsed, ctx: { now: Date }): OpenRouterRow[] {
    return parsed.models.map((m) => ({
      aggregatorId: m.id,
      name: cleanLabel(m.name, MODEL_NAME_MAX) ?? cleanLabel(m.id, MODEL_NAME_MAX) ?? m.id.slice(0, MODEL_NAME_MAX),
      created: dateOf(m.created, ctx.now),
      contextWindow: positiveInt(m.context_length) ?? positiveInt(m.top_provider?.context_length),
      maxOutput: positiveInt(m.top_provider?.max_completion_tokens),
      inputPer1M: perTokenToPer1M(m.pricing?.prompt),
      outputPer1M: perTokenToPer1M(m.pricing?.completion),
      inputModalities: modalities(m.architecture?.input_modalities),
      outputModalities: modalities(m.architecture?.output_modalities),
    }));
  },
  row: OpenRouterRowSchema,
} satisfies Source<OpenRouterParsed, OpenRouterRow>;
