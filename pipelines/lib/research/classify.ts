/**
 * Deterministic, explainable classification of a preprint from its title, abstract, primary category and author
 * affiliations: one subfield tag, one methodology bucket, whether it is a milestone candidate, and the type of
 * each affiliation. Every answer carries its evidence (the rule and the phrases that fired), so a reader can see
 * why. Pure; no model, no randomness: the same text always gets the same labels.
 *
 * Scoring: each rule lists phrases; a phrase found in the title scores 3, in the abstract 1 (each phrase counts
 * once). The rule with the highest score wins, ties going to the rule listed first; rules marked `llm` fire only
 * when the text is about language models. No phrase found: `other`. Measured against the hand-labelled set in
 * pipelines/fixtures/research-labels/ by `npm run eval:research`.
 */
import type { AffiliationType, MethodologyBucket, SubfieldTag } from "../../contract/vocabularies/research.ts";

interface Rule<T extends string> {
  tag: T;
  /** Scored 3 in the title, 1 in the abstract. */
  phrases: readonly string[];
  /** Scored only in the title (3): words too common in abstracts to mean anything there (benchmark, code …). */
  title?: readonly string[];
  /** Scored 3 wherever found: phrases that settle the question (“in this survey”). */
  strong?: readonly string[];
  /** Only when the text is about language models. */
  llm?: boolean;
  /** Added to the score when the preprint's primary category is one of these. */
  categories?: readonly string[];
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const compiled = new Map<string, RegExp>();
/** A phrase as a whole-word, case-insensitive pattern; a trailing `*` matches any word ending (agent* → agents, agentic). */
function pattern(phrase: string): RegExp {
  let re = compiled.get(phrase);
  if (!re) {
    const stem = phrase.endsWith("*") ? `${escape(phrase.slice(0, -1))}\\w*` : `${escape(phrase)}s?`;
    re = new RegExp(`(?<![\\w-])${stem}(?![\\w-])`, "i");
    compiled.set(phrase, re);
  }
  return re;
}

const LLM = /(?<![\w-])(large |small )?language models?(?![\w-])|(?<![\w-])(m?llm|slm)s?(?![\w-])|(?<![\w-])gpt-?\d|chatgpt|instruction-tuned|reasoning models?/i;

/** Subfield rules, most specific first (ties go to the earlier rule). */
export const SUBFIELD_RULES: readonly Rule<SubfieldTag>[] = [
  { tag: "survey", phrases: ["survey", "systematic review", "literature review", "overview of", "tutorial"], title: ["review"], strong: ["this survey", "we survey", "we review", "this report provides"] },
  { tag: "code-generation", phrases: ["code generation", "program synthesis", "code llm", "coding", "software engineering", "swe-bench", "repository-level", "code completion", "bug fix*", "humaneval", "programming", "github"], title: ["code", "coder", "software"] },
  { tag: "agents", phrases: ["agent*", "tool use", "tool-use", "tool calling", "function calling", "web navigation", "multi-agent", "computer use", "gui"] },
  { tag: "retrieval", phrases: ["retrieval", "retrieval-augmented", "rag", "reranking", "reranker", "dense retrieval", "search engine", "embedding model", "vector search"] },
  { tag: "llm-alignment", llm: true, phrases: ["alignment", "aligned", "rlhf", "preference optimization", "dpo", "reward model", "human feedback", "human preference", "constitutional", "sycophancy", "instruction following"] },
  { tag: "fairness-safety", phrases: ["safety", "fairness", "bias", "jailbreak*", "red teaming", "red-teaming", "toxicity", "privacy", "backdoor", "adversarial attack", "unlearning", "watermark*", "misuse", "harmful"] },
  { tag: "efficiency", phrases: ["quantization", "quantized", "pruning", "sparsity", "speculative decoding", "kv cache", "efficient inference", "low-rank", "lora", "compression", "memory-efficient", "throughput", "latency", "distillation", "flops"] },
  { tag: "llm-eval", llm: true, phrases: ["leaderboard", "hallucination", "contamination", "llm-as-a-judge", "judge", "truthful*", "multiple-choice"], title: ["benchmark*", "evaluat*", "measuring", "exam"], strong: ["we introduce a benchmark", "a new benchmark", "new test", "evaluation benchmark", "benchmark of"] },
  { tag: "llm-architecture", llm: true, phrases: ["architecture", "attention", "mixture of experts", "mixture-of-experts", "state space model", "long context", "long-context", "positional encoding", "recurrent", "linear attention", "tokeniz*"] },
  { tag: "llm-training", llm: true, phrases: ["pretraining", "pre-training", "pretrained", "pre-trained on", "trained on", "trillion tokens", "scaling law", "instruction tuning", "fine-tuning", "post-training", "data mixture", "training data", "synthetic data", "curriculum", "reasoning", "chain-of-thought", "test-time", "open models", "foundation language models"], title: ["technical report", "language models", "scaling"] },
  { tag: "multimodal", phrases: ["multimodal", "multi-modal", "vision-language", "vision language", "visual language", "language-image", "image-text", "text-to-image", "text-to-video", "vlm", "mllm", "audio-visual", "visual question answering", "vision encoder", "natural language supervision"] },
  { tag: "speech", phrases: ["speech", "asr", "text-to-speech", "tts", "spoken", "speaker", "audio"] },
  { tag: "robotics", phrases: ["robot*", "manipulation", "embodied", "locomotion", "autonomous driving", "grasp*", "sim-to-real"], categories: ["cs.RO"] },
  { tag: "vision", phrases: ["image", "video", "segmentation", "object detection", "detection", "3d", "point cloud", "diffusion", "vision transformer", "depth estimation", "pose estimation", "gaussian splatting", "nerf", "visual"], categories: ["cs.CV"] },
  { tag: "rl", phrases: ["reinforcement learning", "policy gradient", "markov decision", "q-learning", "offline rl", "bandit*", "reward shaping", "policy optimization"] },
  { tag: "scientific-ml", phrases: ["protein", "molecul*", "chemistry", "physics", "pde", "partial differential", "climate", "weather", "materials", "genom*", "drug", "single-cell"] },
  { tag: "theory", phrases: ["theorem", "we prove", "provabl*", "convergence rate", "generalization bound", "sample complexity", "lower bound", "regret bound", "expressivity", "expressive power"] },
  { tag: "optimization", phrases: ["optimizer", "stochastic gradient", "sgd", "adam", "convex", "gradient descent", "learning rate", "second-order"] },
  { tag: "dataset", phrases: ["dataset", "corpus", "annotated", "annotation"] },
  { tag: "application", phrases: ["clinical", "medical", "legal", "financ*", "education*", "healthcare", "agricultur*", "radiology", "patient*", "manufacturing"] },
];

/** Methodology rules, most specific first. */
export const METHODOLOGY_RULES: readonly Rule<MethodologyBucket>[] = [
  { tag: "survey", phrases: ["survey", "systematic review", "literature review", "overview of", "tutorial"] },
  { tag: "position-paper", phrases: ["position paper", "we argue", "this position", "call for", "perspective", "manifesto"] },
  { tag: "dataset-release", phrases: ["new dataset", "we release a dataset", "we introduce a dataset", "we construct a dataset", "we collect", "corpus of", "dataset of", "large-scale dataset"] },
  { tag: "eval-benchmark", phrases: ["evaluation suite", "evaluation framework", "leaderboard", "test suite", "multiple-choice"], title: ["benchmark*", "evaluat*", "measuring", "judging", "exam"], strong: ["we introduce a benchmark", "a new benchmark", "benchmark of", "new test", "we propose a benchmark", "evaluation benchmark", "we present an evaluation"] },
  { tag: "theoretical-analysis", phrases: ["we prove", "theorem", "theoretical analysis", "provabl*", "upper bound", "lower bound", "formal analysis"] },
  { tag: "fine-tuning", phrases: ["fine-tuning", "fine-tune", "finetuning", "instruction tuning", "lora", "adapter*", "peft", "preference optimization", "dpo", "sft"] },
  { tag: "training-recipe", phrases: ["pretraining", "pre-training", "pre-trained on", "trained on", "trillion tokens", "training recipe", "curriculum", "data mixture", "training strategy", "post-training", "reinforcement learning from", "training pipeline", "data curation", "co-fine-tune", "self-supervised"], title: ["technical report", "herd of models", "open foundation"] },
  { tag: "system-tooling", phrases: ["library", "toolkit", "open-source framework", "serving system", "serving", "inference engine", "kernel", "infrastructure", "platform", "suite of"], title: ["system", "framework"] },
  { tag: "new-architecture", phrases: ["novel architecture", "new architecture", "network architecture", "model architecture", "we propose a novel", "we propose a new", "architecture", "architectural", "module", "network design", "layers", "encoder", "mechanism"] },
  { tag: "empirical-study", phrases: ["empirical study", "empirical analysis", "we study", "we analyze", "we analyse", "we investigate", "analysis of", "we find", "systematic study", "ablation"] },
  { tag: "application", phrases: ["we apply", "case study", "deployed in", "clinical", "medical", "financial"] },
];

/** Frontier labs whose new model reports are milestone candidates. */
export const FRONTIER_LABS = ["OpenAI", "Anthropic", "Google DeepMind", "DeepMind", "Google", "Meta", "Microsoft", "NVIDIA", "Alibaba", "Qwen", "DeepSeek", "Mistral", "Moonshot", "xAI", "Apple", "Amazon", "ByteDance", "Tencent", "Zhipu", "Allen Institute for AI", "Ai2"] as const;
const MODEL_FAMILIES = /(?<![\w-])(gpt|gemini|gemma|llama|claude|qwen|deepseek|mistral|mixtral|phi|olmo|kimi|glm|grok|nemotron)[-\s]?\d/i;
const RELEASE = /(?<![\w-])(open[- ](source|weights?)|we (publicly )?release|are publicly available|is publicly available|weights are available)/i;
const SOTA = /(?<![\w-])state[- ]of[- ]the[- ]art(?![\w-])|(?<![\w-])sota(?![\w-])|outperforms? (all|every|prior|existing)/i;
const NEW_MODEL = /(?<![\w-])we (introduce|present|release|develop)[^.]{0,80}?(?<![\w-])(models?|model family|family of [\w-]+ models)(?![\w-])/i;
const REPORT = /(?<![\w-])(technical report|model card|system card)(?![\w-])/i;

/** Affiliation types by lexicon, checked in this order (a national laboratory is government before academia). */
export const AFFILIATION_LEXICON: readonly { type: Exclude<AffiliationType, "mixed" | "unknown">; phrases: readonly string[] }[] = [
  { type: "nonprofit", phrases: ["allen institute", "ai2", "eleutherai", "mozilla", "foundation", "laion", "mila", "vector institute", "alan turing institute", "simons institute", "center for ai safety", "non-profit", "nonprofit"] },
  { type: "government", phrases: ["national laborator*", "national lab", "nist", "nasa", "national institutes of health", "nih", "ministry", "government", "argonne", "oak ridge", "lawrence livermore", "lawrence berkeley", "los alamos", "sandia", "darpa", "cnrs", "inria", "fraunhofer", "a*star", "riken", "aist", "csiro"] },
  { type: "academia", phrases: ["universit*", "college", "institute of technology", "school of", "polytechnic", "politecnico", "école", "ecole", "eth zurich", "epfl", "mit", "kaist", "tsinghua", "peking", "academy of sciences", "max planck", "hochschule", "department of", "uc", "ucla", "usc", "ist austria", "information sciences institute"] },
  { type: "industry", phrases: ["inc", "corp*", "llc", "ltd", "gmbh", "google", "deepmind", "meta", "microsoft", "openai", "anthropic", "nvidia", "amazon", "aws", "apple", "alibaba", "qwen", "tencent", "bytedance", "baidu", "huawei", "samsung", "ibm", "salesforce", "deepseek", "mistral", "cohere", "adobe", "intel", "qualcomm", "sony", "moonshot", "zhipu", "xai", "hugging face", "databricks", "snowflake", "uber", "netflix", "facebook", "bosch", "toyota", "bloomberg", "servicenow", "runway", "scale ai", "everyday robots", "research lab"] },
];

/** One label with the rule that chose it and the phrases that fired. */
export interface Labelled<T extends string> {
  tag: T;
  /** `<tag>: <phrase>, <phrase>` — or why nothing matched. */
  rule: string;
  score: number;
}

function decide<T extends string>(rules: readonly Rule<T>[], title: string, summary: string, primaryCategory: string, fallback: T): Labelled<T> {
  const llm = LLM.test(title) || LLM.test(summary);
  let best: Labelled<T> | null = null;
  for (const rule of rules) {
    if (rule.llm && !llm) continue;
    const hits: string[] = [];
    let score = 0;
    const shown = (phrase: string) => phrase.replace("*", "");
    for (const phrase of rule.phrases) {
      const re = pattern(phrase);
      if (re.test(title)) {
        score += 3;
        hits.push(`title “${shown(phrase)}”`);
      } else if (re.test(summary)) {
        score += 1;
        hits.push(`“${shown(phrase)}”`);
      }
    }
    for (const phrase of rule.title ?? []) {
      if (pattern(phrase).test(title)) {
        score += 3;
        hits.push(`title “${shown(phrase)}”`);
      }
    }
    for (const phrase of rule.strong ?? []) {
      if (pattern(phrase).test(title) || pattern(phrase).test(summary)) {
        score += 3;
        hits.push(`“${shown(phrase)}”`);
      }
    }
    if (score > 0 && rule.categories?.includes(primaryCategory)) {
      score += 2;
      hits.push(`primary category ${primaryCategory}`);
    }
    if (score > 0 && (best === null || score > best.score)) best = { tag: rule.tag, rule: `${rule.tag}: ${hits.join(", ")}`, score };
  }
  return best ?? { tag: fallback, rule: `${fallback}: no rule phrase in the title or abstract`, score: 0 };
}

/** The input the classifier reads. */
export interface PreprintText {
  title: string;
  summary: string;
  primaryCategory: string;
  affiliations: readonly string[];
}

/** What the classifier answers for one preprint. */
export interface PreprintLabels {
  subfield_tag: SubfieldTag;
  subfield_rule: string;
  methodology_bucket: MethodologyBucket;
  methodology_rule: string;
  is_milestone_candidate: boolean;
  /** Why it is (or null when it is not) a milestone candidate. */
  milestone_reasoning: string | null;
  /** The type of each affiliation, in order. */
  affiliation_types: Exclude<AffiliationType, "mixed">[];
  /** The paper's type: the one type of all its affiliations, `mixed` when several, `unknown` without any. */
  affiliation_type: AffiliationType;
}

/** The type of one affiliation string (unknown when no lexicon phrase matches). */
export function affiliationType(affiliation: string): Exclude<AffiliationType, "mixed"> {
  // Names are matched on words split at hyphens too (DeepSeek-AI, Meta-FAIR).
  const words = affiliation.replace(/-/g, " ");
  for (const entry of AFFILIATION_LEXICON) if (entry.phrases.some((p) => pattern(p).test(words))) return entry.type;
  // A company named "<Name> AI" (Contextual AI, Stability AI) with no other clue is industry.
  return /^[\p{L}\d.&' ]+ AI$/u.test(affiliation.trim()) ? "industry" : "unknown";
}

/** The short name of an affiliation for counting: its first comma-separated part, trimmed (at most 120 characters). */
export function affiliationName(affiliation: string): string {
  return affiliation.split(/[,;]/)[0]!.replace(/\s+/g, " ").trim().slice(0, 120);
}

function milestone(text: PreprintText, labs: string[]): string | null {
  const all = `${text.title}\n${text.summary}`;
  if (REPORT.test(text.title)) return `milestone: the title announces a ${REPORT.exec(text.title)![0].toLowerCase()}`;
  const family = MODEL_FAMILIES.exec(all);
  if (labs.length > 0 && family) return `milestone: a new ${family[0]} model from ${labs.join(", ")}`;
  const introduced = NEW_MODEL.exec(all);
  if (labs.length > 0 && introduced) return `milestone: ${labs.join(", ")} ${introduced[0].replace(/^we /i, "")}`;
  if (SOTA.test(all) && RELEASE.test(all)) return `milestone: claims state of the art (“${SOTA.exec(all)![0]}”) and releases the work openly (“${RELEASE.exec(all)![0]}”)`;
  return null;
}

/** Classify one preprint. */
export function classifyPreprint(text: PreprintText): PreprintLabels {
  const subfield = decide(SUBFIELD_RULES, text.title, text.summary, text.primaryCategory, "other");
  const method = decide(METHODOLOGY_RULES, text.title, text.summary, text.primaryCategory, "other");
  const types = text.affiliations.map(affiliationType);
  const known = [...new Set(types.filter((t) => t !== "unknown"))];
  const labs = [...new Set(text.affiliations.flatMap((a) => FRONTIER_LABS.filter((l) => pattern(l).test(a.replace(/-/g, " ")))))];
  const reasoning = milestone(text, labs);
  return {
    subfield_tag: subfield.tag,
    subfield_rule: subfield.rule,
    methodology_bucket: method.tag,
    methodology_rule: method.rule,
    is_milestone_candidate: reasoning !== null,
    milestone_reasoning: reasoning,
    affiliation_types: types,
    affiliation_type: known.length === 0 ? "unknown" : known.length === 1 ? known[0]! : "mixed",
  };
}
