/**
 * Curated benchmark catalog: the benchmarks premium routing blends (HumanEval, SWE-bench Verified, MMLU-Pro,
 * GPQA Diamond, MATH-500) and per-model scores, each attributed to the page that published it (model card,
 * launch post, technical report) and that page's date. Only attributable scores are listed; gaps stay gaps.
 * Validated at import, including that every scored model exists in the model catalog.
 */
import { z } from "zod";
import { models } from "./models.ts";
import { type BenchmarkScore, BenchmarkScoreSchema } from "../contract/snapshots/benchmarks.ts";

export { type BenchmarkScore, BenchmarkScoreSchema } from "../contract/snapshots/benchmarks.ts";

/** One benchmark and its scores. */
export const BenchmarkSchema = z.strictObject({
  id: z.string().regex(/^[a-z0-9][a-z0-9-]*$/),
  name: z.string().min(1),
  category: z.enum(["coding", "knowledge", "reasoning", "math"]),
  /** Leaderboard or paper. */
  url: z.url(),
  description: z.string().min(1),
  higherIsBetter: z.boolean(),
  scores: z.array(BenchmarkScoreSchema),
});

export type Benchmark = z.infer<typeof BenchmarkSchema>;

/** Validate benchmarks: strict entries, unique ids, known model ids, one score per model per benchmark. */
export function validateBenchmarks(input: unknown, modelIds: readonly string[]): Benchmark[] {
  const list = z.array(BenchmarkSchema).min(1).parse(input);
  const known = new Set(modelIds);
  const ids = new Set<string>();
  for (const b of list) {
    if (ids.has(b.id)) throw new Error(`benchmarks catalog: duplicate benchmark id "${b.id}"`);
    ids.add(b.id);
    const scored = new Set<string>();
    for (const s of b.scores) {
      if (!known.has(s.model)) throw new Error(`benchmarks catalog: ${b.id} scores unknown model "${s.model}"`);
      if (scored.has(s.model)) throw new Error(`benchmarks catalog: ${b.id} scores model "${s.model}" twice`);
      scored.add(s.model);
    }
  }
  return list;
}

// Sources, with their publication dates.
const SRC = {
  claude4: ["https://www.anthropic.com/news/claude-4", "2025-05-22"],
  claude37: ["https://www.anthropic.com/news/claude-3-7-sonnet", "2025-02-24"],
  claude35: ["https://www.anthropic.com/news/3-5-models-and-computer-use", "2024-10-22"],
  claude3: ["https://www.anthropic.com/news/claude-3-family", "2024-03-04"],
  o3: ["https://openai.com/index/introducing-o3-and-o4-mini/", "2025-04-16"],
  gpt41: ["https://openai.com/index/gpt-4-1/", "2025-04-14"],
  gpt45: ["https://openai.com/index/introducing-gpt-4-5/", "2025-02-27"],
  o3mini: ["https://openai.com/index/openai-o3-mini/", "2025-01-31"],
  gpt4oMini: ["https://openai.com/index/gpt-4o-mini-advancing-cost-efficient-intelligence/", "2024-07-18"],
  gpt4o: ["https://openai.com/index/hello-gpt-4o/", "2024-05-13"],
  gemini25: ["https://blog.google/technology/google-deepmind/gemini-model-thinking-updates-march-2025/", "2025-03-25"],
  gemini20: ["https://blog.google/technology/google-deepmind/gemini-model-updates-february-2025/", "2025-02-05"],
  dsR1: ["https://arxiv.org/abs/2501.12948", "2025-01-22"],
  dsV3_0324: ["https://api-docs.deepseek.com/news/news250325", "2025-03-25"],
  llama4: ["https://ai.meta.com/blog/llama-4-multimodal-intelligence/", "2025-04-05"],
  llama33: ["https://github.com/meta-llama/llama-models/blob/main/models/llama3_3/MODEL_CARD.md", "2024-12-06"],
  llama31: ["https://github.com/meta-llama/llama-models/blob/main/models/llama3_1/MODEL_CARD.md", "2024-07-23"],
  qwen25: ["https://qwenlm.github.io/blog/qwen2.5-llm/", "2024-09-19"],
  mistralSmall31: ["https://mistral.ai/news/mistral-small-3-1", "2025-03-17"],
} as const satisfies Record<string, readonly [string, string]>;

function s(model: string, score: number, src: keyof typeof SRC, note?: string): BenchmarkScore {
  const [source, date] = SRC[src];
  return note === undefined ? { model, score, source, date } : { model, score, source, date, note };
}

const NO_THINKING = "without extended thinking";

/** The curated benchmarks with attributed scores, validated at import. */
export const benchmarks: readonly Benchmark[] = validateBenchmarks(
  [
    {
      id: "humaneval",
      name: "HumanEval",
      category: "coding",
      url: "https://github.com/openai/human-eval",
      description: "164 hand-written Python programming problems checked by unit tests; pass@1, in percent.",
      higherIsBetter: true,
      scores: [
        s("claude-3.5-sonnet", 93.7, "claude35"),
        s("claude-3.5-haiku", 88.1, "claude35"),
        s("claude-3-opus", 84.9, "claude3"),
        s("claude-3-haiku", 75.9, "claude3"),
        s("gpt-4o", 90.2, "gpt4o", "measured on gpt-4o-2024-05-13"),
        s("gpt-4o-mini", 87.2, "gpt4oMini"),
        s("llama-3.3-70b", 88.4, "llama33"),
        s("llama-3.1-405b", 89.0, "llama31"),
        s("llama-3.1-8b", 72.6, "llama31"),
        s("qwen-2.5-72b", 86.6, "qwen25"),
        s("mistral-small-3.1", 88.41, "mistralSmall31"),
      ],
    },
    {
      id: "swe-bench-verified",
      name: "SWE-bench Verified",
      category: "coding",
      url: "https://www.swebench.com",
      description:
        "500 human-validated GitHub issues from real Python repositories; percent resolved by the model's patch.",
      higherIsBetter: true,
      scores: [
        s("claude-opus-4", 72.5, "claude4"),
        s("claude-sonnet-4", 72.7, "claude4"),
        s("claude-3.7-sonnet", 62.3, "claude37", "standard mode, no custom scaffold"),
        s("claude-3.5-sonnet", 49.0, "claude35"),
        s("claude-3.5-haiku", 40.6, "claude35"),
        s("o3", 69.1, "o3"),
        s("o4-mini", 68.1, "o3"),
        s("o1", 48.9, "o3"),
        s("o3-mini", 49.3, "o3mini", "high reasoning effort"),
        s("gpt-4.1", 54.6, "gpt41"),
        s("gpt-4.1-mini", 23.6, "gpt41"),
        s("gpt-4o", 33.2, "gpt41", "measured on gpt-4o-2024-11-20"),
        s("gpt-4.5-preview", 38.0, "gpt45"),
        s("gemini-2.5-pro-preview", 63.8, "gemini25", "custom agent setup; measured on the 03-25 release"),
        s("deepseek-r1", 49.2, "dsR1"),
      ],
    },
    {
      id: "mmlu-pro",
      name: "MMLU-Pro",
      category: "knowledge",
      url: "https://github.com/TIGER-AI-Lab/MMLU-Pro",
      description:
        "About 12,000 ten-option multiple-choice questions across 14 fields, a harder successor to MMLU; accuracy in percent.",
      higherIsBetter: true,
      scores: [
        s("claude-3.5-sonnet", 78.0, "claude35"),
        s("claude-3.5-haiku", 65.0, "claude35"),
        s("deepseek-r1", 84.0, "dsR1"),
        s("deepseek-v3", 81.2, "dsV3_0324"),
        s("gemini-2.0-flash", 77.6, "gemini20"),
        s("gemini-2.0-flash-lite", 71.6, "gemini20"),
        s("llama-4-maverick", 80.5, "llama4"),
        s("llama-4-scout", 74.3, "llama4"),
        s("llama-3.3-70b", 68.9, "llama33"),
        s("llama-3.1-405b", 73.3, "llama31"),
        s("llama-3.1-8b", 48.3, "llama31"),
        s("qwen-2.5-72b", 71.1, "qwen25"),
        s("mistral-small-3.1", 66.76, "mistralSmall31"),
      ],
    },
    {
      id: "gpqa-diamond",
      name: "GPQA Diamond",
      category: "reasoning",
      url: "https://arxiv.org/abs/2311.12022",
      description:
        "198 graduate-level, search-resistant multiple-choice questions in biology, physics and chemistry; accuracy in percent.",
      higherIsBetter: true,
      scores: [
        s("claude-opus-4", 79.6, "claude4", NO_THINKING),
        s("claude-sonnet-4", 75.4, "claude4", NO_THINKING),
        s("claude-3.7-sonnet", 68.0, "claude37", NO_THINKING),
        s("claude-3.5-sonnet", 65.0, "claude35"),
        s("claude-3.5-haiku", 41.6, "claude35"),
        s("claude-3-opus", 50.4, "claude3"),
        s("claude-3-haiku", 33.3, "claude3"),
        s("o3", 83.3, "o3"),
        s("o4-mini", 81.4, "o3"),
        s("o1", 78.0, "o3"),
        s("o3-mini", 79.7, "o3mini", "high reasoning effort"),
        s("gpt-4.1", 66.3, "gpt41"),
        s("gpt-4.1-mini", 65.0, "gpt41"),
        s("gpt-4.1-nano", 50.3, "gpt41"),
        s("gpt-4o", 46.0, "gpt41", "measured on gpt-4o-2024-11-20"),
        s("gpt-4o-mini", 40.2, "gpt41"),
        s("gpt-4.5-preview", 71.4, "gpt45"),
        s("gemini-2.5-pro-preview", 84.0, "gemini25", "measured on the 03-25 release"),
        s("gemini-2.0-flash", 60.1, "gemini20"),
        s("gemini-2.0-flash-lite", 51.5, "gemini20"),
        s("deepseek-r1", 71.5, "dsR1"),
        s("deepseek-v3", 68.4, "dsV3_0324"),
        s("llama-4-maverick", 69.8, "llama4"),
        s("llama-4-scout", 57.2, "llama4"),
        s("llama-3.3-70b", 50.5, "llama33"),
        s("mistral-small-3.1", 45.96, "mistralSmall31"),
      ],
    },
    {
      id: "math-500",
      name: "MATH-500",
      category: "math",
      url: "https://huggingface.co/datasets/HuggingFaceH4/MATH-500",
      description:
        "500 competition mathematics problems drawn from the MATH test set (the subset of OpenAI's PRM800K work); exact-match accuracy in percent.",
      higherIsBetter: true,
      scores: [
        s("deepseek-r1", 97.3, "dsR1"),
        s("o1", 96.4, "dsR1", "measured by DeepSeek on o1-2024-12-17"),
        s("claude-3.5-sonnet", 78.3, "dsR1", "measured by DeepSeek on claude-3-5-sonnet-20241022"),
        s("gpt-4o", 74.6, "dsR1", "measured by DeepSeek on gpt-4o-2024-05-13"),
        s("claude-3.7-sonnet", 82.2, "claude37", NO_THINKING),
      ],
    },
  ],
  models.map((m) => m.id),
);
