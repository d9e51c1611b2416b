/**
 * Provider API endpoints the `probe` feed times every 15 minutes. Each is a cheap, unauthenticated GET on the
 * provider's public API host — mostly the documented "list models" path — so no key is ever sent. Without a
 * key most answer 401 or 403 from their API front end; that is still a real round trip through the
 * provider's edge and counts as up (any HTTP answer below 500). A 5xx, a timeout or a refused connection
 * counts as down. What is measured is reachability and latency of the API edge, not inference speed.
 * Paths chosen from each provider's public API reference, 2026-11-22. Provider ids match the status catalog
 * (pipelines/catalog/status-providers.ts) where the provider is in it; the catalog is validated at import.
 */
import { z } from "zod";

/** One probe target. */
export const probeTarget = z.strictObject({
  provider: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, "lowercase provider id"),
  name: z.string().min(1),
  url: z.url({ protocol: /^https$/ }),
  method: z.literal("GET"),
  /** What an unauthenticated request is expected to get, for readers of the samples. */
  expect: z.string().min(1),
});
export type ProbeTargetEntry = z.infer<typeof probeTarget>;

const LIST_MODELS = "401 from the list-models endpoint without a key";

/** The targets, one per provider, sorted by provider id. */
export const probeTargets: ProbeTargetEntry[] = z
  .array(probeTarget)
  .min(10)
  .refine((rows) => new Set(rows.map((r) => r.provider)).size === rows.length, "provider ids must be unique")
  .refine((rows) => rows.every((r, i) => i === 0 || rows[i - 1]!.provider < r.provider), "targets must be sorted by provider id")
  .parse([
    { provider: "anthropic", name: "Anthropic", url: "https://api.anthropic.com/v1/models", method: "GET", expect: "401 (no x-api-key header)" },
    { provider: "cerebras", name: "Cerebras", url: "https://api.cerebras.ai/v1/models", method: "GET", expect: LIST_MODELS },
    { provider: "cohere", name: "Cohere", url: "https://api.cohere.com/v1/models", method: "GET", expect: LIST_MODELS },
    { provider: "deepseek", name: "DeepSeek", url: "https://api.deepseek.com/models", method: "GET", expect: LIST_MODELS },
    { provider: "fireworks", name: "Fireworks AI", url: "https://api.fireworks.ai/inference/v1/models", method: "GET", expect: LIST_MODELS },
    {
      provider: "google",
      name: "Google Gemini API (Generative Language)",
      url: "https://generativelanguage.googleapis.com/v1beta/models",
      method: "GET",
      expect: "403 PERMISSION_DENIED without an API key",
    },
    { provider: "groq", name: "Groq", url: "https://api.groq.com/openai/v1/models", method: "GET", expect: LIST_MODELS },
    { provider: "mistral", name: "Mistral AI", url: "https://api.mistral.ai/v1/models", method: "GET", expect: LIST_MODELS },
    { provider: "openai", name: "OpenAI", url: "https://api.openai.com/v1/models", method: "GET", expect: LIST_MODELS },
    {
      provider: "openrouter",
      name: "OpenRouter",
      url: "https://openrouter.ai/api/v1/key",
      method: "GET",
      expect: "401 from the API-key endpoint without a key (its public model list is ~400 KB, not a cheap probe)",
    },
    { provider: "perplexity", name: "Perplexity", url: "https://api.perplexity.ai/chat/completions", method: "GET", expect: "a 4xx (no key, and the endpoint takes POST)" },
    { provider: "together", name: "Together AI", url: "https://api.together.xyz/v1/models", method: "GET", expect: LIST_MODELS },
    { provider: "xai", name: "xAI", url: "https://api.x.ai/v1/models", method: "GET", expect: "a 4xx without a key" },
  ]);
