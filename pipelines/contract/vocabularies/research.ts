/**
 * The research vocabularies the contract fixes for the preprint analytics: 21 subfield tags, 12 methodology buckets and
 * the affiliation types. The classifier (pipelines/lib/research/) assigns them; the warehouse stores them; the
 * research endpoints filter on them.
 */

export const SUBFIELD_TAGS = [
  "llm-architecture",
  "llm-training",
  "llm-eval",
  "llm-alignment",
  "multimodal",
  "vision",
  "speech",
  "robotics",
  "rl",
  "theory",
  "optimization",
  "efficiency",
  "retrieval",
  "agents",
  "code-generation",
  "scientific-ml",
  "fairness-safety",
  "dataset",
  "survey",
  "application",
  "other",
] as const;
export type SubfieldTag = (typeof SUBFIELD_TAGS)[number];

export const METHODOLOGY_BUCKETS = [
  "new-architecture",
  "training-recipe",
  "fine-tuning",
  "eval-benchmark",
  "theoretical-analysis",
  "empirical-study",
  "dataset-release",
  "system-tooling",
  "survey",
  "position-paper",
  "application",
  "other",
] as const;
export type MethodologyBucket = (typeof METHODOLOGY_BUCKETS)[number];

/** A paper's affiliation type: `mixed` when its affiliations span several types, `unknown` without any. */
export const AFFILIATION_TYPES = ["industry", "academia", "government", "nonprofit", "mixed", "unknown"] as const;
export type AffiliationType = (typeof AFFILIATION_TYPES)[number];
