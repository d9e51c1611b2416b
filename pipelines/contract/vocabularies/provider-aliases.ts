/**
 * Other names of the AI providers the status and probe feeds track, by provider id: the product, company and
 * domain names agents use for them ("Claude" for anthropic, "Gemini" for google, "x.ai" for xai). Curated from
 * the providers' own sites and status pages on 2026-11-23. Names are compared after {@link providerNameKey}, so
 * "Together AI", "together-ai" and "togetherai" are one alias; every id is also an alias of itself.
 */

/** Provider id → its other names. */
export const PROVIDER_ALIASES: Readonly<Record<string, readonly string[]>> = {
  openai: ["OpenAI", "Open AI", "ChatGPT", "GPT", "openai.com"],
  anthropic: ["Anthropic", "Claude", "anthropic.com"],
  google: ["Google", "Gemini", "Google AI", "Google Gemini", "Vertex AI", "Vertex", "Google Cloud", "DeepMind", "Google DeepMind"],
  "azure-openai": ["Azure OpenAI", "Azure", "Microsoft Azure", "Azure AI", "Microsoft"],
  mistral: ["Mistral", "Mistral AI", "mistral.ai"],
  cohere: ["Cohere", "cohere.com"],
  deepseek: ["DeepSeek", "deepseek.com"],
  xai: ["xAI", "x.ai", "Grok"],
  groq: ["Groq", "GroqCloud"],
  cerebras: ["Cerebras", "Cerebras Inference"],
  fireworks: ["Fireworks", "Fireworks AI", "fireworks.ai"],
  together: ["Together", "Together AI", "together.ai"],
  perplexity: ["Perplexity", "Perplexity AI", "pplx"],
  huggingface: ["Hugging Face", "HuggingFace", "HF", "huggingface.co"],
  replicate: ["Replicate", "replicate.com"],
  openrouter: ["OpenRouter", "openrouter.ai"],
  meta: ["Meta", "Meta AI", "Llama"],
  qwen: ["Qwen", "Alibaba", "Alibaba Cloud"],
  amazon: ["Amazon", "AWS", "Bedrock", "Amazon Bedrock", "Nova"],
};

/** The comparison key of a provider name: lower case, letters and digits only ("Together AI" → "togetherai"). */
export function providerNameKey(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, "");
}

const byKey = new Map<string, string>();
for (const [id, aliases] of Object.entries(PROVIDER_ALIASES)) {
  for (const name of [id, ...aliases]) {
    const key = providerNameKey(name);
    const other = byKey.get(key);
    if (other !== undefined && other !== id) throw new Error(`provider-aliases: ${JSON.stringify(name)} names both ${other} and ${id}`);
    byKey.set(key, id);
  }
}

/**
 * The provider id a name stands for: an id in `known` (compared by key), else the id the alias table gives
 * for it; undefined when neither knows the name.
 */
export function resolveProviderName(name: string, known: Iterable<string> = []): string | undefined {
  const key = providerNameKey(name);
  if (key === "") return undefined;
  for (const id of known) if (providerNameKey(id) === key) return id;
  return byKey.get(key);
}

/** Every name the table gives for a provider id (the id itself first); just the id when the table lacks it. */
export function providerNames(id: string): string[] {
  return [id, ...(PROVIDER_ALIASES[id] ?? [])];
}
