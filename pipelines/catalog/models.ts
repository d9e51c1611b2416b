/**
 * Curated model catalog: list prices in USD per 1M tokens as published by each provider (see the provider's
 * `pricingSource` and `checked` date in providers.ts), context window, capabilities and the aggregator id the
 * pricing feed uses to cross-check prices. Validated at import.
 */
import { z } from "zod";
import { providers } from "./providers.ts";
import { CapabilitySchema, TierSchema } from "../contract/snapshots/pricing.ts";

export { type Capability, CapabilitySchema, TierSchema } from "../contract/snapshots/pricing.ts";

const usdPer1M = z.number().nonnegative().finite();

/** One curated model. */
export const ModelSchema = z.strictObject({
  /** Our id, lowercase, unique across providers (`gpt-4o`, `claude-sonnet-4` …). */
  id: z.string().regex(/^[a-z0-9][a-z0-9.-]*$/),
  name: z.string().min(1),
  /** A provider id from providers.ts. */
  provider: z.string().min(1),
  /** USD per 1M input tokens. */
  inputCostPer1M: usdPer1M,
  /** USD per 1M output tokens. */
  outputCostPer1M: usdPer1M,
  contextWindow: z.number().int().positive(),
  /** Largest completion in tokens; null when the provider does not state one. */
  maxOutput: z.number().int().positive().nullable(),
  capabilities: z.array(CapabilitySchema).min(1),
  /** YYYY-MM-DD of the first public (API) release. */
  releaseDate: z.iso.date(),
  openSource: z.boolean(),
  /** The model's id in the aggregator's catalog (OpenRouter format `vendor/slug`). */
  aggregatorId: z.string().regex(/^[a-z0-9-]+\/[a-z0-9.:-]+$/),
  tier: TierSchema,
  /** Overrides the provider's pricing source for this model (open-weight models priced by a host). */
  pricingSource: z.url().optional(),
  /** A caveat on the price (tiers, thinking surcharge …). */
  priceNote: z.string().min(1).optional(),
});

export type Model = z.infer<typeof ModelSchema>;

/**
 * Validate a model list against the providers: strict entries, unique ids and aggregator ids, known
 * providers, capabilities listed once and including `text`. Throws naming the offending model.
 */
export function validateModels(input: unknown, providerIds: readonly string[]): Model[] {
  const list = z.array(ModelSchema).min(1).parse(input);
  const known = new Set(providerIds);
  const ids = new Set<string>();
  const aggregatorIds = new Set<string>();
  for (const m of list) {
    if (ids.has(m.id)) throw new Error(`models catalog: duplicate model id "${m.id}"`);
    if (aggregatorIds.has(m.aggregatorId)) {
      throw new Error(`models catalog: duplicate aggregatorId "${m.aggregatorId}" (model "${m.id}")`);
    }
    if (!known.has(m.provider)) throw new Error(`models catalog: model "${m.id}" has unknown provider "${m.provider}"`);
    if (new Set(m.capabilities).size !== m.capabilities.length) {
      throw new Error(`models catalog: model "${m.id}" lists a capability twice: ${m.capabilities.join(",")}`);
    }
    if (!m.capabilities.includes("text")) throw new Error(`models catalog: model "${m.id}" lacks the "text" capability`);
    ids.add(m.id);
    aggregatorIds.add(m.aggregatorId);
  }
  return list;
}

const TV = ["text", "vision", "tools", "json_mode"] as const;
const TVR = ["text", "vision", "tools", "reasoning", "json_mode"] as const;

/** The curated models, validated at import. Prices as of each provider's `checked` date. */
export const models: readonly Model[] = validateModels(
  [
    // OpenAI — https://openai.com/api/pricing/
    { id: "gpt-4.1", name: "GPT-4.1", provider: "openai", inputCostPer1M: 2, outputCostPer1M: 8, contextWindow: 1_047_576, maxOutput: 32_768, capabilities: [...TV], releaseDate: "2025-04-14", openSource: false, aggregatorId: "openai/gpt-4.1", tier: "flagship" },
    { id: "gpt-4.1-mini", name: "GPT-4.1 mini", provider: "openai", inputCostPer1M: 0.4, outputCostPer1M: 1.6, contextWindow: 1_047_576, maxOutput: 32_768, capabilities: [...TV], releaseDate: "2025-04-14", openSource: false, aggregatorId: "openai/gpt-4.1-mini", tier: "mid" },
    { id: "gpt-4.1-nano", name: "GPT-4.1 nano", provider: "openai", inputCostPer1M: 0.1, outputCostPer1M: 0.4, contextWindow: 1_047_576, maxOutput: 32_768, capabilities: [...TV], releaseDate: "2025-04-14", openSource: false, aggregatorId: "openai/gpt-4.1-nano", tier: "small" },
    { id: "gpt-4o", name: "GPT-4o", provider: "openai", inputCostPer1M: 2.5, outputCostPer1M: 10, contextWindow: 128_000, maxOutput: 16_384, capabilities: [...TV], releaseDate: "2024-05-13", openSource: false, aggregatorId: "openai/gpt-4o", tier: "mid" },
    { id: "gpt-4o-mini", name: "GPT-4o mini", provider: "openai", inputCostPer1M: 0.15, outputCostPer1M: 0.6, contextWindow: 128_000, maxOutput: 16_384, capabilities: [...TV], releaseDate: "2024-07-18", openSource: false, aggregatorId: "openai/gpt-4o-mini", tier: "small" },
    { id: "gpt-4.5-preview", name: "GPT-4.5 (preview)", provider: "openai", inputCostPer1M: 75, outputCostPer1M: 150, contextWindow: 128_000, maxOutput: 16_384, capabilities: [...TV], releaseDate: "2025-02-27", openSource: false, aggregatorId: "openai/gpt-4.5-preview", tier: "flagship" },
    { id: "o3", name: "o3", provider: "openai", inputCostPer1M: 10, outputCostPer1M: 40, contextWindow: 200_000, maxOutput: 100_000, capabilities: [...TVR], releaseDate: "2025-04-16", openSource: false, aggregatorId: "openai/o3", tier: "flagship" },
    { id: "o4-mini", name: "o4-mini", provider: "openai", inputCostPer1M: 1.1, outputCostPer1M: 4.4, contextWindow: 200_000, maxOutput: 100_000, capabilities: [...TVR], releaseDate: "2025-04-16", openSource: false, aggregatorId: "openai/o4-mini", tier: "mid" },
    { id: "o3-mini", name: "o3-mini", provider: "openai", inputCostPer1M: 1.1, outputCostPer1M: 4.4, contextWindow: 200_000, maxOutput: 100_000, capabilities: ["text", "tools", "reasoning", "json_mode"], releaseDate: "2025-01-31", openSource: false, aggregatorId: "openai/o3-mini", tier: "small" },
    { id: "o1", name: "o1", provider: "openai", inputCostPer1M: 15, outputCostPer1M: 60, contextWindow: 200_000, maxOutput: 100_000, capabilities: [...TVR], releaseDate: "2024-12-17", openSource: false, aggregatorId: "openai/o1", tier: "flagship" },

    // Anthropic — https://www.anthropic.com/pricing#api
    { id: "claude-opus-4", name: "Claude Opus 4", provider: "anthropic", inputCostPer1M: 15, outputCostPer1M: 75, contextWindow: 200_000, maxOutput: 32_000, capabilities: ["text", "vision", "tools", "reasoning"], releaseDate: "2025-05-22", openSource: false, aggregatorId: "anthropic/claude-opus-4", tier: "flagship" },
    { id: "claude-sonnet-4", name: "Claude Sonnet 4", provider: "anthropic", inputCostPer1M: 3, outputCostPer1M: 15, contextWindow: 200_000, maxOutput: 64_000, capabilities: ["text", "vision", "tools", "reasoning"], releaseDate: "2025-05-22", openSource: false, aggregatorId: "anthropic/claude-sonnet-4", tier: "mid" },
    { id: "claude-3.7-sonnet", name: "Claude 3.7 Sonnet", provider: "anthropic", inputCostPer1M: 3, outputCostPer1M: 15, contextWindow: 200_000, maxOutput: 64_000, capabilities: ["text", "vision", "tools", "reasoning"], releaseDate: "2025-02-24", openSource: false, aggregatorId: "anthropic/claude-3.7-sonnet", tier: "mid" },
    { id: "claude-3.5-sonnet", name: "Claude 3.5 Sonnet (2024-10-22)", provider: "anthropic", inputCostPer1M: 3, outputCostPer1M: 15, contextWindow: 200_000, maxOutput: 8_192, capabilities: ["text", "vision", "tools"], releaseDate: "2024-10-22", openSource: false, aggregatorId: "anthropic/claude-3.5-sonnet", tier: "mid" },
    { id: "claude-3.5-haiku", name: "Claude 3.5 Haiku", provider: "anthropic", inputCostPer1M: 0.8, outputCostPer1M: 4, contextWindow: 200_000, maxOutput: 8_192, capabilities: ["text", "vision", "tools"], releaseDate: "2024-10-22", openSource: false, aggregatorId: "anthropic/claude-3.5-haiku", tier: "small" },
    { id: "claude-3-opus", name: "Claude 3 Opus", provider: "anthropic", inputCostPer1M: 15, outputCostPer1M: 75, contextWindow: 200_000, maxOutput: 4_096, capabilities: ["text", "vision", "tools"], releaseDate: "2024-03-04", openSource: false, aggregatorId: "anthropic/claude-3-opus", tier: "flagship" },
    { id: "claude-3-haiku", name: "Claude 3 Haiku", provider: "anthropic", inputCostPer1M: 0.25, outputCostPer1M: 1.25, contextWindow: 200_000, maxOutput: 4_096, capabilities: ["text", "vision", "tools"], releaseDate: "2024-03-13", openSource: false, aggregatorId: "anthropic/claude-3-haiku", tier: "small" },

    // Google — https://ai.google.dev/gemini-api/docs/pricing
    { id: "gemini-2.5-pro-preview", name: "Gemini 2.5 Pro (preview 05-06)", provider: "google", inputCostPer1M: 1.25, outputCostPer1M: 10, contextWindow: 1_048_576, maxOutput: 65_536, capabilities: ["text", "vision", "audio", "tools", "reasoning", "json_mode"], releaseDate: "2025-05-06", openSource: false, aggregatorId: "google/gemini-2.5-pro-preview", tier: "flagship", priceNote: "Prompts up to 200K tokens; longer prompts cost 2.50 in / 15.00 out." },
    { id: "gemini-2.5-flash-preview", name: "Gemini 2.5 Flash (preview 05-20)", provider: "google", inputCostPer1M: 0.15, outputCostPer1M: 0.6, contextWindow: 1_048_576, maxOutput: 65_536, capabilities: ["text", "vision", "audio", "tools", "reasoning", "json_mode"], releaseDate: "2025-05-20", openSource: false, aggregatorId: "google/gemini-2.5-flash-preview-05-20", tier: "mid", priceNote: "Output without thinking; thinking output costs 3.50." },
    { id: "gemini-2.0-flash", name: "Gemini 2.0 Flash", provider: "google", inputCostPer1M: 0.1, outputCostPer1M: 0.4, contextWindow: 1_048_576, maxOutput: 8_192, capabilities: ["text", "vision", "audio", "tools", "json_mode"], releaseDate: "2025-02-05", openSource: false, aggregatorId: "google/gemini-2.0-flash-001", tier: "small", priceNote: "Text, image and video input; audio input costs 0.70." },
    { id: "gemini-2.0-flash-lite", name: "Gemini 2.0 Flash-Lite", provider: "google", inputCostPer1M: 0.075, outputCostPer1M: 0.3, contextWindow: 1_048_576, maxOutput: 8_192, capabilities: ["text", "vision", "audio", "json_mode"], releaseDate: "2025-02-25", openSource: false, aggregatorId: "google/gemini-2.0-flash-lite-001", tier: "small" },
    { id: "gemma-3-27b", name: "Gemma 3 27B", provider: "google", inputCostPer1M: 0.1, outputCostPer1M: 0.2, contextWindow: 131_072, maxOutput: null, capabilities: ["text", "vision"], releaseDate: "2025-03-12", openSource: true, aggregatorId: "google/gemma-3-27b-it", tier: "mid", pricingSource: "https://openrouter.ai/google/gemma-3-27b-it", priceNote: "Open weights; price is the aggregator's hosted price." },

    // Meta — open weights; aggregator-hosted prices (see providers.ts)
    { id: "llama-4-maverick", name: "Llama 4 Maverick", provider: "meta", inputCostPer1M: 0.16, outputCostPer1M: 0.6, contextWindow: 1_048_576, maxOutput: 16_384, capabilities: ["text", "vision", "tools"], releaseDate: "2025-04-05", openSource: true, aggregatorId: "meta-llama/llama-4-maverick", tier: "flagship" },
    { id: "llama-4-scout", name: "Llama 4 Scout", provider: "meta", inputCostPer1M: 0.08, outputCostPer1M: 0.3, contextWindow: 1_048_576, maxOutput: null, capabilities: ["text", "vision", "tools"], releaseDate: "2025-04-05", openSource: true, aggregatorId: "meta-llama/llama-4-scout", tier: "mid" },
    { id: "llama-3.3-70b", name: "Llama 3.3 70B Instruct", provider: "meta", inputCostPer1M: 0.07, outputCostPer1M: 0.25, contextWindow: 131_072, maxOutput: 16_384, capabilities: ["text", "tools"], releaseDate: "2024-12-06", openSource: true, aggregatorId: "meta-llama/llama-3.3-70b-instruct", tier: "mid" },
    { id: "llama-3.1-405b", name: "Llama 3.1 405B Instruct", provider: "meta", inputCostPer1M: 0.8, outputCostPer1M: 0.8, contextWindow: 131_072, maxOutput: null, capabilities: ["text", "tools"], releaseDate: "2024-07-23", openSource: true, aggregatorId: "meta-llama/llama-3.1-405b-instruct", tier: "flagship" },
    { id: "llama-3.1-8b", name: "Llama 3.1 8B Instruct", provider: "meta", inputCostPer1M: 0.02, outputCostPer1M: 0.03, contextWindow: 131_072, maxOutput: null, capabilities: ["text", "tools"], releaseDate: "2024-07-23", openSource: true, aggregatorId: "meta-llama/llama-3.1-8b-instruct", tier: "small" },

    // Mistral AI — https://mistral.ai/pricing#api-pricing
    { id: "mistral-large-2411", name: "Mistral Large 24.11", provider: "mistral", inputCostPer1M: 2, outputCostPer1M: 6, contextWindow: 131_072, maxOutput: null, capabilities: ["text", "tools", "json_mode"], releaseDate: "2024-11-18", openSource: false, aggregatorId: "mistralai/mistral-large-2411", tier: "flagship" },
    { id: "pixtral-large-2411", name: "Pixtral Large 24.11", provider: "mistral", inputCostPer1M: 2, outputCostPer1M: 6, contextWindow: 131_072, maxOutput: null, capabilities: ["text", "vision", "tools", "json_mode"], releaseDate: "2024-11-18", openSource: false, aggregatorId: "mistralai/pixtral-large-2411", tier: "flagship" },
    { id: "mistral-medium-3", name: "Mistral Medium 3", provider: "mistral", inputCostPer1M: 0.4, outputCostPer1M: 2, contextWindow: 131_072, maxOutput: null, capabilities: ["text", "vision", "tools", "json_mode"], releaseDate: "2025-05-07", openSource: false, aggregatorId: "mistralai/mistral-medium-3", tier: "mid" },
    { id: "mistral-small-3.1", name: "Mistral Small 3.1", provider: "mistral", inputCostPer1M: 0.1, outputCostPer1M: 0.3, contextWindow: 131_072, maxOutput: null, capabilities: ["text", "vision", "tools", "json_mode"], releaseDate: "2025-03-17", openSource: true, aggregatorId: "mistralai/mistral-small-3.1-24b-instruct", tier: "small" },
    { id: "codestral-2501", name: "Codestral 25.01", provider: "mistral", inputCostPer1M: 0.3, outputCostPer1M: 0.9, contextWindow: 262_144, maxOutput: null, capabilities: ["text", "tools", "json_mode"], releaseDate: "2025-01-13", openSource: false, aggregatorId: "mistralai/codestral-2501", tier: "mid" },
    { id: "ministral-8b", name: "Ministral 8B", provider: "mistral", inputCostPer1M: 0.1, outputCostPer1M: 0.1, contextWindow: 131_072, maxOutput: null, capabilities: ["text", "tools", "json_mode"], releaseDate: "2024-10-16", openSource: false, aggregatorId: "mistralai/ministral-8b", tier: "small" },
    { id: "mistral-nemo", name: "Mistral NeMo", provider: "mistral", inputCostPer1M: 0.15, outputCostPer1M: 0.15, contextWindow: 131_072, maxOutput: null, capabilities: ["text", "tools", "json_mode"], releaseDate: "2024-07-18", openSource: true, aggregatorId: "mistralai/mistral-nemo", tier: "small" },

    // DeepSeek — https://api-docs.deepseek.com/quick_start/pricing
    { id: "deepseek-v3", name: "DeepSeek-V3 (0324)", provider: "deepseek", inputCostPer1M: 0.27, outputCostPer1M: 1.1, contextWindow: 65_536, maxOutput: 8_192, capabilities: ["text", "tools", "json_mode"], releaseDate: "2025-03-24", openSource: true, aggregatorId: "deepseek/deepseek-chat-v3-0324", tier: "flagship", priceNote: "API model deepseek-chat; cache-hit input costs 0.07." },
    { id: "deepseek-r1", name: "DeepSeek-R1", provider: "deepseek", inputCostPer1M: 0.55, outputCostPer1M: 2.19, contextWindow: 65_536, maxOutput: null, capabilities: ["text", "reasoning", "json_mode"], releaseDate: "2025-01-20", openSource: true, aggregatorId: "deepseek/deepseek-r1", tier: "flagship", priceNote: "API model deepseek-reasoner; cache-hit input costs 0.14." },

    // xAI — https://docs.x.ai/docs/models
    { id: "grok-3", name: "Grok 3 (beta)", provider: "xai", inputCostPer1M: 3, outputCostPer1M: 15, contextWindow: 131_072, maxOutput: null, capabilities: ["text", "tools", "json_mode"], releaseDate: "2025-04-09", openSource: false, aggregatorId: "x-ai/grok-3-beta", tier: "flagship" },
    { id: "grok-3-mini", name: "Grok 3 Mini (beta)", provider: "xai", inputCostPer1M: 0.3, outputCostPer1M: 0.5, contextWindow: 131_072, maxOutput: null, capabilities: ["text", "tools", "reasoning", "json_mode"], releaseDate: "2025-04-09", openSource: false, aggregatorId: "x-ai/grok-3-mini-beta", tier: "small" },
    { id: "grok-2-1212", name: "Grok 2 (1212)", provider: "xai", inputCostPer1M: 2, outputCostPer1M: 10, contextWindow: 131_072, maxOutput: null, capabilities: ["text", "tools", "json_mode"], releaseDate: "2024-12-12", openSource: false, aggregatorId: "x-ai/grok-2-1212", tier: "mid" },
    { id: "grok-2-vision-1212", name: "Grok 2 Vision (1212)", provider: "xai", inputCostPer1M: 2, outputCostPer1M: 10, contextWindow: 32_768, maxOutput: null, capabilities: ["text", "vision", "json_mode"], releaseDate: "2024-12-12", openSource: false, aggregatorId: "x-ai/grok-2-vision-1212", tier: "mid" },

    // Cohere — https://cohere.com/pricing
    { id: "command-a", name: "Command A", provider: "cohere", inputCostPer1M: 2.5, outputCostPer1M: 10, contextWindow: 256_000, maxOutput: 8_192, capabilities: ["text", "tools", "json_mode"], releaseDate: "2025-03-13", openSource: false, aggregatorId: "cohere/command-a", tier: "flagship" },
    { id: "command-r-plus-08-2024", name: "Command R+ (08-2024)", provider: "cohere", inputCostPer1M: 2.5, outputCostPer1M: 10, contextWindow: 128_000, maxOutput: 4_000, capabilities: ["text", "tools", "json_mode"], releaseDate: "2024-08-30", openSource: false, aggregatorId: "cohere/command-r-plus-08-2024", tier: "mid" },
    { id: "command-r-08-2024", name: "Command R (08-2024)", provider: "cohere", inputCostPer1M: 0.15, outputCostPer1M: 0.6, contextWindow: 128_000, maxOutput: 4_000, capabilities: ["text", "tools", "json_mode"], releaseDate: "2024-08-30", openSource: false, aggregatorId: "cohere/command-r-08-2024", tier: "small" },
    { id: "command-r7b-12-2024", name: "Command R7B (12-2024)", provider: "cohere", inputCostPer1M: 0.0375, outputCostPer1M: 0.15, contextWindow: 128_000, maxOutput: 4_000, capabilities: ["text", "tools", "json_mode"], releaseDate: "2024-12-13", openSource: false, aggregatorId: "cohere/command-r7b-12-2024", tier: "small" },

    // Alibaba Cloud (Qwen) — https://www.alibabacloud.com/help/en/model-studio/models
    { id: "qwen-max", name: "Qwen-Max (Qwen2.5-Max)", provider: "qwen", inputCostPer1M: 1.6, outputCostPer1M: 6.4, contextWindow: 32_768, maxOutput: 8_192, capabilities: ["text", "tools", "json_mode"], releaseDate: "2025-01-28", openSource: false, aggregatorId: "qwen/qwen-max", tier: "flagship" },
    { id: "qwen-plus", name: "Qwen-Plus", provider: "qwen", inputCostPer1M: 0.4, outputCostPer1M: 1.2, contextWindow: 131_072, maxOutput: 8_192, capabilities: ["text", "tools", "json_mode"], releaseDate: "2025-01-25", openSource: false, aggregatorId: "qwen/qwen-plus", tier: "mid" },
    { id: "qwen-turbo", name: "Qwen-Turbo", provider: "qwen", inputCostPer1M: 0.05, outputCostPer1M: 0.2, contextWindow: 1_000_000, maxOutput: 8_192, capabilities: ["text", "tools", "json_mode"], releaseDate: "2024-11-15", openSource: false, aggregatorId: "qwen/qwen-turbo", tier: "small" },
    { id: "qwen-2.5-72b", name: "Qwen2.5 72B Instruct", provider: "qwen", inputCostPer1M: 0.12, outputCostPer1M: 0.39, contextWindow: 131_072, maxOutput: 8_192, capabilities: ["text", "tools", "json_mode"], releaseDate: "2024-09-19", openSource: true, aggregatorId: "qwen/qwen-2.5-72b-instruct", tier: "mid", pricingSource: "https://openrouter.ai/qwen/qwen-2.5-72b-instruct", priceNote: "Open weights; price is the aggregator's hosted price." },

    // Amazon — https://aws.amazon.com/bedrock/pricing/
    { id: "nova-pro", name: "Amazon Nova Pro", provider: "amazon", inputCostPer1M: 0.8, outputCostPer1M: 3.2, contextWindow: 300_000, maxOutput: null, capabilities: ["text", "vision", "tools"], releaseDate: "2024-12-03", openSource: false, aggregatorId: "amazon/nova-pro-v1", tier: "mid" },
    { id: "nova-lite", name: "Amazon Nova Lite", provider: "amazon", inputCostPer1M: 0.06, outputCostPer1M: 0.24, contextWindow: 300_000, maxOutput: null, capabilities: ["text", "vision", "tools"], releaseDate: "2024-12-03", openSource: false, aggregatorId: "amazon/nova-lite-v1", tier: "small" },
    { id: "nova-micro", name: "Amazon Nova Micro", provider: "amazon", inputCostPer1M: 0.035, outputCostPer1M: 0.14, contextWindow: 128_000, maxOutput: null, capabilities: ["text", "tools"], releaseDate: "2024-12-03", openSource: false, aggregatorId: "amazon/nova-micro-v1", tier: "small" },
  ],
  providers.map((p) => p.id),
);

/** A model by our id. */
export function modelById(id: string): Model | undefined {
  return models.find((m) => m.id === id);
}
