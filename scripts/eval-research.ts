/**
 * `npm run eval:research`: the preprint classifier (pipelines/lib/research/classify.ts) against the hand-labelled
 * set (pipelines/fixtures/research-labels/): per label precision, recall and support for the subfield tag, the
 * methodology bucket, milestone candidates, each distinct affiliation's type and each paper's affiliation type.
 */
import { evaluateClassifier, type LabelScore } from "../pipelines/lib/research/evaluate.ts";

const pct = (x: number | null) => (x === null ? "   -  " : `${(x * 100).toFixed(1).padStart(5)}%`);
const r = evaluateClassifier();
process.stdout.write(`eval:research — ${r.papers} hand-labelled preprints\n`);
for (const [name, s] of [["subfield tag", r.subfield], ["methodology bucket", r.methodology], ["milestone candidate", r.milestone], ["affiliation type (distinct affiliations)", r.affiliation], ["paper affiliation type", r.paperAffiliation]] as const) {
  process.stdout.write(`\n${name}: accuracy ${pct(s.accuracy)} over ${s.n}\n${"label".padEnd(22)} precision   recall  predicted  labelled\n`);
  for (const l of s.labels as LabelScore[]) process.stdout.write(`${l.label.padEnd(22)} ${pct(l.precision).padStart(9)} ${pct(l.recall).padStart(8)} ${String(l.predicted).padStart(10)} ${String(l.actual).padStart(9)}\n`);
}
