/**
 * Curated list of model providers behind the model catalog (snapshot type `pricing`). Each entry names the
 * page its prices were taken from and the date they were checked against it. Validated at import.
 */
import { z } from "zod";

const isoDate = z.iso.date();

/** One model provider (lowercase id, pricing source and the date it was checked). */
export const ProviderSchema = z.strictObject({
  /** Lowercase id, also used by the status feed (`openai`, `anthropic` …). */
  id: z.string().regex(/^[a-z][a-z0-9-]*$/),
  name: z.string().min(1),
  url: z.url(),
  /** Only for providers the status catalog does not track; tracked ones take its URL (one list, not two). */
  statusPageUrl: z.url().optional(),
  /** The page the catalog's prices for this provider were read from. */
  pricingSource: z.url(),
  /** YYYY-MM-DD: the date the prices were checked against `pricingSource`. */
  checked: isoDate,
  /** How to read the prices when they are not plain first-party list prices. */
  pricingNote: z.string().min(1).optional(),
});

export type Provider = z.infer<typeof ProviderSchema>;

/** Validate a provider list: every entry strict, ids unique. Throws naming the offending id. */
export function validateProviders(input: unknown): Provider[] {
  const list = z.array(ProviderSchema).min(1).parse(input);
  const seen = new Set<string>();
  for (const p of list) {
    if (seen.has(p.id)) throw new Error(`providers catalog: duplicate provider id "${p.id}"`);
    seen.add(p.id);
  }
  return list;
}

/** The curated providers, validated at import. */
export const providers: readonly Provider[] = validateProviders([
  {
    id: "openai",
    name: "OpenAI",
    url: "https://openai.com",
    pricingSource: "https://openai.com/api/pricing/",
    checked: "2025-05-23",
  },
  {
    id: "anthropic",
    name: "Anthropic",
    url: "https://www.anthropic.com",
    pricingSource: "https://www.anthropic.com/pricing#api",
    checked: "2025-05-23",
  },
  {
    id: "google",
    name: "Google",
    url: "https://ai.google.dev",
    pricingSource: "https://ai.google.dev/gemini-api/docs/pricing",
    checked: "2025-05-23",
    pricingNote: "Gemini API paid tier; prompts above 200K tokens (2.5 Pro) cost more.",
  },
  {
    id: "meta",
    name: "Meta",
    url: "https://www.llama.com",
    pricingSource: "https://openrouter.ai/meta-llama",
    checked: "2025-05-23",
    pricingNote:
      "Meta publishes open weights and no per-token price of its own; prices are the aggregator's listed price for each model.",
  },
  {
    id: "mistral",
    name: "Mistral AI",
    url: "https://mistral.ai",
    statusPageUrl: "https://status.mistral.ai",
    pricingSource: "https://mistral.ai/pricing#api-pricing",
    checked: "2025-05-23",
  },
  {
    id: "deepseek",
    name: "DeepSeek",
    url: "https://www.deepseek.com",
    pricingSource: "https://api-docs.deepseek.com/quick_start/pricing",
    checked: "2025-05-23",
    pricingNote: "Standard-hours price for a cache miss; cache hits and off-peak hours cost less.",
  },
  {
    id: "xai",
    name: "xAI",
    url: "https://x.ai",
    pricingSource: "https://docs.x.ai/docs/models",
    checked: "2025-05-23",
  },
  {
    id: "cohere",
    name: "Cohere",
    url: "https://cohere.com",
    pricingSource: "https://cohere.com/pricing",
    checked: "2025-05-23",
  },
  {
    id: "qwen",
    name: "Alibaba Cloud (Qwen)",
    url: "https://qwenlm.github.io",
    pricingSource: "https://www.alibabacloud.com/help/en/model-studio/models",
    checked: "2025-05-23",
    pricingNote: "Model Studio international (Singapore) price for the first input tier.",
  },
  {
    id: "amazon",
    name: "Amazon",
    url: "https://aws.amazon.com/ai/generative-ai/nova/",
    statusPageUrl: "https://health.aws.amazon.com/health/status",
    pricingSource: "https://aws.amazon.com/bedrock/pricing/",
    checked: "2025-05-23",
    pricingNote: "Amazon Bedrock on-demand price in us-east-1.",
  },
]);
