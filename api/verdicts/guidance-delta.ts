/**
 * What changed between two same-form filings' forward-looking passages (risk factors, the forward-looking
 * statements notice, the outlook): one change per passage that was added, removed, reworded or only had its figures
 * changed, each classified by topic category, direction and materiality. Pure and deterministic: no clock, no I/O.
 *
 * Rules (documented in the route and the API reference):
 * - Matching: same section and same heading (case, punctuation and spacing ignored) first; then the remaining pairs
 *   whose similarity (the larger of heading word overlap and the mean of heading and text word overlap) is at least
 *   MATCH_THRESHOLD, best pair first. A notice or an outlook matches its counterpart by section alone.
 * - Change type: added / removed (no counterpart), value_changed (every sentence the same once figures are masked, a
 *   figure other than a year differs), modified (any other difference). Identical passages are not changes.
 * - Materiality: boilerplate when the only differences are years, dates, spacing, punctuation or letter case;
 *   material for an added or removed risk factor, a figure moved by at least 25 % (or 5 percentage points), a
 *   rewrite changing at least 25 % of the text's word pairs, or a high-signal term (export controls, tariffs,
 *   sanctions, investigations, impairment, material weakness, going concern, default …) named more often than
 *   before; minor otherwise.
 * - Values: for a figure change, the first figure that moved; for a rewording, the first figure (not a year or a
 *   date) of the removed and of the new sentences, when they have one.
 * - Direction: for a figure, whether it rose or fell; for text, added (increased) and removed (decreased) risk
 *   factors, and for a rewording the sign of the net count of risk-language terms; neutral when that is zero.
 */

import { FILING_SECTIONS, type FilingPassage, type FilingSection } from "../../pipelines/contract/snapshots/sec-filing-sections.ts";

/** The sections compared. */
export const DELTA_SECTIONS = FILING_SECTIONS;
export type DeltaSection = FilingSection;
/** A passage of a filing (the contract of snapshot `sec-filing-sections`). */
export type DeltaPassage = FilingPassage;

export const CHANGE_TYPES = ["added", "removed", "modified", "value_changed"] as const;
export const DIRECTIONS = ["increased", "decreased", "neutral"] as const;
export const MATERIALITIES = ["material", "minor", "boilerplate"] as const;
export const CATEGORIES = [
  "export_controls_trade",
  "supply_chain",
  "demand_customers",
  "competition",
  "regulatory_legal",
  "cybersecurity_privacy",
  "ai_technology",
  "macro_financial",
  "operations_people",
  "guidance",
  "forward_looking_notice",
  "other",
] as const;
export type ChangeType = (typeof CHANGE_TYPES)[number];
export type Direction = (typeof DIRECTIONS)[number];
export type Materiality = (typeof MATERIALITIES)[number];
export type Category = (typeof CATEGORIES)[number];

/** One change between the two filings. */
export interface GuidanceChange {
  topic: string;
  prior_text: string | null;
  current_text: string | null;
  prior_value: string | null;
  current_value: string | null;
  section: DeltaSection;
  category: Category;
  change_type: ChangeType;
  direction: Direction;
  materiality: Materiality;
}

/** Counts and a one-line headline of a delta. */
export interface MaterialitySummary {
  total_changes: number;
  by_materiality: Record<Materiality, number>;
  by_category: Partial<Record<Category, number>>;
  by_change_type: Record<ChangeType, number>;
  by_direction: Record<Direction, number>;
  headline: string;
}

/** Lowest similarity at which two differently worded passages are the same topic. */
export const MATCH_THRESHOLD = 0.5;
/** A rewrite touching at least this share of the text is material. */
export const MATERIAL_REWRITE_SHARE = 0.25;
/** A figure moving by at least this relative amount is material … */
export const MATERIAL_VALUE_CHANGE = 0.25;
/** … or, for percentages, by at least this many points. */
export const MATERIAL_POINTS = 5;
/** Longest quote in a change, in characters. */
export const QUOTE_CHARS = 600;
/** Longest topic, in characters. */
export const TOPIC_CHARS = 300;

/** Terms whose appearance in new text makes a rewording material. */
export const HIGH_SIGNAL_TERMS = [
  "export control",
  "export license",
  "license requirement",
  "entity list",
  "tariff",
  "sanction",
  "embargo",
  "investigation",
  "subpoena",
  "antitrust",
  "impairment",
  "material weakness",
  "going concern",
  "default",
  "restructuring",
  "recall",
  "shortage",
  "termination",
  "bankruptcy",
] as const;

/** Words that carry risk in disclosure language (their net count sets a rewording's direction). */
const RISK_TERMS = /\b(adverse(?:ly)?|harm(?:ed|s|ful)?|material(?:ly)?|significant(?:ly)?|substantial(?:ly)?|decline[sd]?|loss(?:es)?|restrict(?:ed|ions?|s)?|uncertain(?:ty|ties)?|volatil(?:e|ity)|disrupt(?:ed|ions?|s)?|fail(?:ed|ure|s)?|risks?|limit(?:ed|ations?|s)?|penalt(?:y|ies)|liabilit(?:y|ies))\b/gi;

const CATEGORY_TERMS: Record<Exclude<Category, "guidance" | "forward_looking_notice" | "other">, readonly string[]> = {
  export_controls_trade: ["export", "tariff", "trade", "sanction", "entity list", "china", "geopolitic", "embargo", "customs"],
  supply_chain: ["supplier", "supply", "manufactur", "foundry", "component", "capacity", "lead time", "inventory", "wafer", "packaging"],
  demand_customers: ["demand", "customer", "partner", "distributor", "order", "revenue from", "concentration", "advertis", "user"],
  competition: ["competition", "competitor", "competitive", "market share"],
  regulatory_legal: ["law", "regulat", "litigation", "lawsuit", "investigation", "antitrust", "tax", "compliance", "legal", "intellectual property", "ip rights", "patent"],
  cybersecurity_privacy: ["cyber", "security breach", "data protection", "privacy", "hack", "breach", "malware", "ransomware"],
  ai_technology: ["artificial intelligence", " ai ", "ai,", "ai.", "machine learning", "model", "responsible use", "generative"],
  macro_financial: ["economic", "interest rate", "inflation", "currency", "foreign exchange", "indebtedness", "debt", "stock price", "volatil", "dividend", "repurchase", "capital"],
  operations_people: ["employee", "personnel", "talent", "key executive", "business process", "information system", "disruption", "climate", "catastroph", "acquisition", "integration"],
};

const norm = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}%$]+/gu, " ").trim();
const STOP = new Set(["the", "a", "an", "of", "and", "or", "to", "in", "on", "for", "our", "we", "us", "could", "may", "be", "by", "with", "as", "is", "are", "that", "which", "its", "from", "at", "this", "these", "have", "has", "been", "will", "can", "if", "not"]);
const words = (s: string) => new Set(norm(s).split(" ").filter((w) => w.length > 1 && !STOP.has(w)));
function jaccard(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 && b.size === 0) return 1;
  let shared = 0;
  for (const w of a) if (b.has(w)) shared++;
  return shared / (a.size + b.size - shared);
}

/** Sentences of a text, in order (paragraph breaks and sentence ends split). */
export function sentences(text: string): string[] {
  return text
    .split(/\n|(?<=[.!?;])\s+(?=[“"(]?[A-Z0-9•])/u)
    .map((s) => s.replace(/\s+/g, " ").trim())
    .filter((s) => s.length > 0);
}

const MONTHS = "january|february|march|april|may|june|july|august|september|october|november|december";
const DATE_PATTERN = new RegExp(`\\b(?:${MONTHS})\\s+\\d{1,2},?\\s+(?:19|20)\\d{2}\\b|\\b(?:${MONTHS})\\s+(?:19|20)\\d{2}\\b|\\b(?:fiscal\\s+(?:year\\s+)?)?(?:19|20)\\d{2}\\b|\\bq[1-4]\\b`, "gi");
/** A figure: a currency amount with its scale, a percentage, or a plain number. */
const FIGURE = /\$\s?\d[\d,]*(?:\.\d+)?(?:\s*(?:trillion|billion|million|thousand))?|\d[\d,]*(?:\.\d+)?\s?(?:%|percent\b|percentage points?\b)|\b\d[\d,]*(?:\.\d+)?\b/gi;

/** Text with years, dates and quarter names masked, case and punctuation folded: what boilerplate leaves alone. */
const withoutDates = (s: string) => norm(s.replace(DATE_PATTERN, " ‹date› "));
/** Text with every figure (and date) masked. */
const withoutFigures = (s: string) => withoutDates(s).replace(/\d[\d,]*(?:\.\d+)?/g, "#");

/** The figures of a sentence other than years and dates, as written. */
export function figures(sentence: string): string[] {
  const stripped = sentence.replace(DATE_PATTERN, " ");
  return [...stripped.matchAll(FIGURE)].map((m) => m[0].replace(/\s+/g, " ").trim());
}

/** The number a figure stands for, scaled ("$1.2 billion" → 1.2e9), and whether it is a percentage. */
export function figureAmount(figure: string): { amount: number; percent: boolean } | null {
  const m = /(\d[\d,]*(?:\.\d+)?)/.exec(figure);
  if (!m) return null;
  const base = Number(m[1]!.replace(/,/g, ""));
  if (!Number.isFinite(base)) return null;
  const scale = /trillion/i.test(figure) ? 1e12 : /billion/i.test(figure) ? 1e9 : /million/i.test(figure) ? 1e6 : /thousand/i.test(figure) ? 1e3 : 1;
  return { amount: base * scale, percent: /%|percent/i.test(figure) };
}

/** Whether a figure moved enough to be material. */
export function materialMove(prior: string, current: string): boolean {
  const a = figureAmount(prior);
  const b = figureAmount(current);
  if (!a || !b) return false;
  if (a.percent && b.percent && Math.abs(b.amount - a.amount) >= MATERIAL_POINTS) return true;
  const base = Math.max(Math.abs(a.amount), Math.abs(b.amount));
  return base > 0 && Math.abs(b.amount - a.amount) / base >= MATERIAL_VALUE_CHANGE;
}

function quote(parts: readonly string[]): string | null {
  if (parts.length === 0) return null;
  const joined = parts.join(" ");
  if (joined.length <= QUOTE_CHARS) return joined;
  const cut = joined.slice(0, QUOTE_CHARS - 1);
  const space = cut.lastIndexOf(" ");
  return `${space > QUOTE_CHARS * 0.6 ? cut.slice(0, space) : cut}…`;
}

const topicOf = (p: DeltaPassage) => (p.heading.length <= TOPIC_CHARS ? p.heading : `${p.heading.slice(0, TOPIC_CHARS - 1)}…`);

/** The category of a passage: the category whose terms it names most (heading ×3, group ×2, opening text ×1). */
export function categoryOf(p: DeltaPassage): Category {
  if (p.section === "outlook") return "guidance";
  if (p.section === "forward_looking_statements") return "forward_looking_notice";
  const heading = ` ${p.heading.toLowerCase()} `;
  const group = ` ${(p.group ?? "").toLowerCase()} `;
  const opening = ` ${p.text.slice(0, 1000).toLowerCase()} `;
  let best: Category = "other";
  let bestScore = 0;
  for (const [category, terms] of Object.entries(CATEGORY_TERMS) as [Category, readonly string[]][]) {
    let score = 0;
    for (const term of terms) {
      if (heading.includes(term)) score += 3;
      if (group.includes(term)) score += 2;
      if (opening.includes(term)) score += 1;
    }
    if (score > bestScore) {
      best = category;
      bestScore = score;
    }
  }
  return best;
}

const riskTermCount = (parts: readonly string[]) => parts.reduce((n, s) => n + (s.match(RISK_TERMS)?.length ?? 0), 0);
const occurrences = (text: string, term: string) => text.split(term).length - 1;

/** High-signal terms the current passage names more often than the prior one. */
export function newHighSignalTerms(prior: DeltaPassage, current: DeltaPassage): string[] {
  const before = `${prior.heading} ${prior.text}`.toLowerCase();
  const after = `${current.heading} ${current.text}`.toLowerCase();
  return HIGH_SIGNAL_TERMS.filter((t) => occurrences(after, t) > occurrences(before, t));
}

function bigrams(text: string): Map<string, number> {
  const list = norm(text).split(" ").filter((w) => w !== "");
  const out = new Map<string, number>();
  for (let k = 1; k < list.length; k++) {
    const pair = `${list[k - 1]} ${list[k]}`;
    out.set(pair, (out.get(pair) ?? 0) + 1);
  }
  return out;
}

/** Share (0-1) of two texts' word pairs that are not common to both: 0 for the same words in the same order. */
export function rewriteShare(prior: string, current: string): number {
  const a = bigrams(prior);
  const b = bigrams(current);
  let total = 0;
  let shared = 0;
  for (const [pair, n] of a) {
    total += n;
    shared += Math.min(n, b.get(pair) ?? 0);
  }
  for (const n of b.values()) total += n;
  return total === 0 ? 0 : 1 - (2 * shared) / total;
}

/** Pair prior and current passages: exact heading first, then by similarity. */
export function matchPassages(prior: readonly DeltaPassage[], current: readonly DeltaPassage[]): { pairs: [number, number][]; added: number[]; removed: number[] } {
  const pairs: [number, number][] = [];
  const usedPrior = new Set<number>();
  const usedCurrent = new Set<number>();
  const key = (p: DeltaPassage) => (p.section === "risk_factors" ? `${p.section}|${norm(p.heading)}` : p.section);
  const take = (i: number, j: number) => {
    pairs.push([i, j]);
    usedPrior.add(i);
    usedCurrent.add(j);
  };
  const priorByKey = new Map<string, number[]>();
  prior.forEach((p, i) => priorByKey.set(key(p), [...(priorByKey.get(key(p)) ?? []), i]));
  current.forEach((c, j) => {
    const candidates = priorByKey.get(key(c));
    const i = candidates?.find((k) => !usedPrior.has(k));
    if (i !== undefined) take(i, j);
  });
  const scored: { i: number; j: number; score: number }[] = [];
  const priorWords = prior.map((p) => ({ heading: words(p.heading), text: words(p.text) }));
  const currentWords = current.map((c) => ({ heading: words(c.heading), text: words(c.text) }));
  current.forEach((c, j) => {
    if (usedCurrent.has(j)) return;
    prior.forEach((p, i) => {
      if (usedPrior.has(i) || p.section !== c.section) return;
      const heading = jaccard(priorWords[i]!.heading, currentWords[j]!.heading);
      const text = jaccard(priorWords[i]!.text, currentWords[j]!.text);
      const score = Math.max(heading, (heading + text) / 2);
      if (score >= MATCH_THRESHOLD) scored.push({ i, j, score });
    });
  });
  scored.sort((a, b) => b.score - a.score || a.j - b.j || a.i - b.i);
  for (const s of scored) {
    if (!usedPrior.has(s.i) && !usedCurrent.has(s.j)) take(s.i, s.j);
  }
  pairs.sort((a, b) => a[1] - b[1]);
  return {
    pairs,
    added: current.map((_, j) => j).filter((j) => !usedCurrent.has(j)),
    removed: prior.map((_, i) => i).filter((i) => !usedPrior.has(i)),
  };
}

/** The change between two matched passages, or null when they say the same. */
export function comparePassages(prior: DeltaPassage, current: DeltaPassage): GuidanceChange | null {
  if (norm(prior.heading) === norm(current.heading) && norm(prior.text) === norm(current.text)) return null;
  const category = categoryOf(current);
  const base = { topic: topicOf(current), section: current.section, category };
  const before = sentences(prior.text);
  const after = sentences(current.text);
  const headingChanged = norm(prior.heading) !== norm(current.heading);
  // Only years, dates, case or punctuation differ: boilerplate roll-forward.
  const datesMasked = (list: string[]) => list.map(withoutDates).join("\n");
  if (!headingChanged || withoutDates(prior.heading) === withoutDates(current.heading)) {
    if (datesMasked(before) === datesMasked(after)) {
      const changedPrior = before.filter((s, k) => norm(s) !== norm(after[k] ?? ""));
      const changedCurrent = after.filter((s, k) => norm(s) !== norm(before[k] ?? ""));
      return { ...base, prior_text: quote(changedPrior), current_text: quote(changedCurrent), prior_value: null, current_value: null, change_type: "modified", direction: "neutral", materiality: "boilerplate" };
    }
  }
  const priorSet = new Set(before.map(norm));
  const currentSet = new Set(after.map(norm));
  const removedSentences = before.filter((s) => !currentSet.has(norm(s)));
  const addedSentences = after.filter((s) => !priorSet.has(norm(s)));
  // Sentences that are the same once figures are masked: their figures changed.
  const maskedPrior = new Map<string, string>();
  for (const s of removedSentences) if (!maskedPrior.has(withoutFigures(s))) maskedPrior.set(withoutFigures(s), s);
  const valuePairs: { prior: string; current: string; priorSentence: string; currentSentence: string }[] = [];
  const pairedAdded = new Set<string>();
  const pairedRemoved = new Set<string>();
  for (const s of addedSentences) {
    const twin = maskedPrior.get(withoutFigures(s));
    if (twin === undefined || pairedRemoved.has(twin)) continue;
    const a = figures(twin);
    const b = figures(s);
    const k = a.findIndex((f, n) => norm(f) !== norm(b[n] ?? ""));
    if (k < 0 || b[k] === undefined) continue;
    valuePairs.push({ prior: a[k]!, current: b[k]!, priorSentence: twin, currentSentence: s });
    pairedAdded.add(s);
    pairedRemoved.add(twin);
  }
  const textAdded = addedSentences.filter((s) => !pairedAdded.has(s));
  const textRemoved = removedSentences.filter((s) => !pairedRemoved.has(s));
  const firstValue = valuePairs[0];
  if (!headingChanged && textAdded.length === 0 && textRemoved.length === 0 && firstValue) {
    const a = figureAmount(firstValue.prior)?.amount ?? 0;
    const b = figureAmount(firstValue.current)?.amount ?? 0;
    return {
      ...base,
      prior_text: quote([firstValue.priorSentence]),
      current_text: quote([firstValue.currentSentence]),
      prior_value: firstValue.prior,
      current_value: firstValue.current,
      change_type: "value_changed",
      direction: b > a ? "increased" : b < a ? "decreased" : "neutral",
      materiality: valuePairs.some((v) => materialMove(v.prior, v.current)) ? "material" : "minor",
    };
  }
  const share = rewriteShare(`${prior.heading}\n${prior.text}`, `${current.heading}\n${current.text}`);
  // What went and what came, a changed heading first.
  const removedSide = headingChanged ? [prior.heading, ...removedSentences] : removedSentences;
  const addedSide = headingChanged ? [current.heading, ...addedSentences] : addedSentences;
  const net = riskTermCount(addedSide) - riskTermCount(removedSide);
  const material = share >= MATERIAL_REWRITE_SHARE || newHighSignalTerms(prior, current).length > 0 || valuePairs.some((v) => materialMove(v.prior, v.current));
  return {
    ...base,
    prior_text: quote(removedSide),
    current_text: quote(addedSide),
    prior_value: firstValue?.prior ?? textRemoved.flatMap(figures)[0] ?? null,
    current_value: firstValue?.current ?? textAdded.flatMap(figures)[0] ?? null,
    change_type: "modified",
    direction: net > 0 ? "increased" : net < 0 ? "decreased" : "neutral",
    materiality: material ? "material" : "minor",
  };
}

function wholePassage(p: DeltaPassage, side: "added" | "removed"): GuidanceChange {
  const text = quote([p.heading, ...sentences(p.text)]);
  return {
    topic: topicOf(p),
    prior_text: side === "removed" ? text : null,
    current_text: side === "added" ? text : null,
    prior_value: null,
    current_value: null,
    section: p.section,
    category: categoryOf(p),
    change_type: side,
    direction: side === "added" ? "increased" : "decreased",
    materiality: p.section === "forward_looking_statements" ? "minor" : "material",
  };
}

const MATERIALITY_ORDER: Record<Materiality, number> = { material: 0, minor: 1, boilerplate: 2 };
const SECTION_ORDER: Record<DeltaSection, number> = { outlook: 0, risk_factors: 1, forward_looking_statements: 2 };

/** Every change between the prior and the current filing's passages, most material first. */
export function guidanceChanges(prior: readonly DeltaPassage[], current: readonly DeltaPassage[]): GuidanceChange[] {
  const { pairs, added, removed } = matchPassages(prior, current);
  const changes: { change: GuidanceChange; order: number }[] = [];
  for (const [i, j] of pairs) {
    const change = comparePassages(prior[i]!, current[j]!);
    if (change) changes.push({ change, order: j });
  }
  for (const j of added) changes.push({ change: wholePassage(current[j]!, "added"), order: j });
  for (const i of removed) changes.push({ change: wholePassage(prior[i]!, "removed"), order: current.length + i });
  changes.sort((a, b) => MATERIALITY_ORDER[a.change.materiality] - MATERIALITY_ORDER[b.change.materiality] || SECTION_ORDER[a.change.section] - SECTION_ORDER[b.change.section] || a.order - b.order);
  return changes.map((c) => c.change);
}

/** The counts and headline of a list of changes. */
export function materialitySummary(changes: readonly GuidanceChange[], label: string): MaterialitySummary {
  const by_materiality: Record<Materiality, number> = { material: 0, minor: 0, boilerplate: 0 };
  const by_change_type: Record<ChangeType, number> = { added: 0, removed: 0, modified: 0, value_changed: 0 };
  const by_direction: Record<Direction, number> = { increased: 0, decreased: 0, neutral: 0 };
  const by_category: Partial<Record<Category, number>> = {};
  for (const c of changes) {
    by_materiality[c.materiality]++;
    by_change_type[c.change_type]++;
    by_direction[c.direction]++;
    by_category[c.category] = (by_category[c.category] ?? 0) + 1;
  }
  return { total_changes: changes.length, by_materiality, by_category, by_change_type, by_direction, headline: headline(changes, by_materiality, label) };
}

function headline(changes: readonly GuidanceChange[], counts: Record<Materiality, number>, label: string): string {
  if (changes.length === 0) return `${label}: no change in risk factors, forward-looking statements or outlook.`;
  const material = changes.filter((c) => c.materiality === "material");
  if (material.length === 0) return `${label}: ${changes.length} change${changes.length === 1 ? "" : "s"}, none material (${counts.minor} minor, ${counts.boilerplate} boilerplate).`;
  const added = material.filter((c) => c.change_type === "added").length;
  const removed = material.filter((c) => c.change_type === "removed").length;
  const reworded = material.length - added - removed;
  const categories = new Map<Category, number>();
  for (const c of material) categories.set(c.category, (categories.get(c.category) ?? 0) + 1);
  const [lead] = [...categories.entries()].sort((a, b) => b[1] - a[1] || CATEGORIES.indexOf(a[0]) - CATEGORIES.indexOf(b[0]));
  const parts = [added > 0 ? `${added} risk factor${added === 1 ? "" : "s"} added` : null, removed > 0 ? `${removed} removed` : null, reworded > 0 ? `${reworded} materially changed` : null].filter((p) => p !== null);
  return `${label}: ${material.length} material change${material.length === 1 ? "" : "s"} (${parts.join(", ")}), most in ${lead![0].replace(/_/g, " ")}; ${counts.minor} minor, ${counts.boilerplate} boilerplate.`;
}
