/**
 * Measures the preprint classifier against the hand-labelled set in pipelines/fixtures/research-labels/ (an Atom
 * listing in the arXiv API's format and its labels): per label, precision (of the papers given that label, the
 * share the hand labels agree with), recall and support. `npm run eval:research` prints it.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { normalizeArxiv, parseArxiv, type Preprint } from "../../sources/arxiv.ts";
import { AFFILIATION_TYPES, METHODOLOGY_BUCKETS, SUBFIELD_TAGS } from "../../contract/vocabularies/research.ts";
import { affiliationType, classifyPreprint } from "./classify.ts";

/** Where the labelled set lives. */
export const LABELS_DIR = join(import.meta.dirname, "..", "..", "fixtures", "research-labels");

const labelsSchema = z.strictObject({
  labelled: z.iso.date(),
  by: z.string(),
  papers: z.record(
    z.string(),
    z.strictObject({ subfield_tag: z.enum(SUBFIELD_TAGS), methodology_bucket: z.enum(METHODOLOGY_BUCKETS), milestone: z.boolean(), affiliation_type: z.enum(AFFILIATION_TYPES) }),
  ),
  affiliations: z.record(z.string(), z.enum(AFFILIATION_TYPES)),
});
export type ResearchLabels = z.infer<typeof labelsSchema>;

/** The labelled preprints and their labels. */
export function loadLabelledSet(dir = LABELS_DIR): { preprints: Preprint[]; labels: ResearchLabels } {
  const preprints = normalizeArxiv(parseArxiv(readFileSync(join(dir, "preprints.atom"), "utf8")), { now: new Date(), meta: { category: "cs.AI" } });
  const labels = labelsSchema.parse(JSON.parse(readFileSync(join(dir, "labels.json"), "utf8")));
  return { preprints, labels };
}

/** Precision, recall and counts of one label. */
export interface LabelScore {
  label: string;
  predicted: number;
  actual: number;
  correct: number;
  /** correct / predicted; null when never predicted. */
  precision: number | null;
  /** correct / actual; null when never in the hand labels. */
  recall: number | null;
}

/** Per-label scores of predicted against hand labels, plus overall accuracy. */
export function score(pairs: readonly { predicted: string; actual: string }[]): { labels: LabelScore[]; accuracy: number; n: number } {
  const names = [...new Set(pairs.flatMap((p) => [p.predicted, p.actual]))].sort();
  const labels = names.map((label) => {
    const predicted = pairs.filter((p) => p.predicted === label).length;
    const actual = pairs.filter((p) => p.actual === label).length;
    const correct = pairs.filter((p) => p.predicted === label && p.actual === label).length;
    return { label, predicted, actual, correct, precision: predicted === 0 ? null : correct / predicted, recall: actual === 0 ? null : correct / actual };
  });
  const n = pairs.length;
  return { labels, accuracy: n === 0 ? 0 : pairs.filter((p) => p.predicted === p.actual).length / n, n };
}

/** The classifier's scores on the labelled set, per dimension. */
export function evaluateClassifier(set = loadLabelledSet()) {
  const rows = set.preprints.map((p) => {
    const hand = set.labels.papers[p.id];
    if (!hand) throw new Error(`research labels: no label for ${p.id}`);
    return { p, hand, got: classifyPreprint({ title: p.title, summary: p.summary, primaryCategory: p.primaryCategory, affiliations: p.affiliations }) };
  });
  return {
    papers: rows.length,
    subfield: score(rows.map((r) => ({ predicted: r.got.subfield_tag, actual: r.hand.subfield_tag }))),
    methodology: score(rows.map((r) => ({ predicted: r.got.methodology_bucket, actual: r.hand.methodology_bucket }))),
    milestone: score(rows.map((r) => ({ predicted: String(r.got.is_milestone_candidate), actual: String(r.hand.milestone) }))),
    paperAffiliation: score(rows.map((r) => ({ predicted: r.got.affiliation_type, actual: r.hand.affiliation_type }))),
    affiliation: score(Object.entries(set.labels.affiliations).map(([name, actual]) => ({ predicted: affiliationType(name), actual }))),
  };
}
