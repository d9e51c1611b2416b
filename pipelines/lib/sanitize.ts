/**
 * The text sanitizer every outside free-text field goes through (article titles and snippets, forum titles …).
 *
 * A field is read in one of two formats, chosen by the caller from what the field is in its upstream:
 *  - `html` (the default): markup, as in RSS/Atom titles and descriptions or HTML pages. Step 0 below turns it
 *    into text once; a `<` or `&` that only appears after decoding (`&lt;template&gt;` → `<template>`) is text
 *    the author wrote, so it is kept and never parsed as a tag again.
 *  - `plain`: text as typed, as in JSON fields (GitHub issue titles, forum titles, OSV summaries). `<…>` and `&…;`
 *    are kept literally ("Option<String>", "XSS in <svg> handling"); step 0 is skipped.
 *
 * Step 0, `html` only: tags, comments and the content of script/style-like elements are removed (sanitize-html
 * with no allowed tags; block-level tags leave a space), then HTML entities are decoded (entities), repeatedly
 * while that changes something (double-encoded `&amp;amp;`). Content is discarded only for an element that is
 * closed: an unclosed `<svg>`, `<template>` … (or an unterminated `<!--` or `<tag`) loses only its own markup,
 * never the text after it.
 *
 * Then one round, in order:
 *  1. Invisible characters: C0/C1 controls, bidi embeddings/overrides/isolates and marks, Unicode tag
 *     characters, every other format character (Cf: zero-width space, word joiner, BOM, soft hyphen …),
 *     Hangul fillers, private-use code points, lone surrogates, noncharacters, supplementary variation
 *     selectors (U+E0100–U+E01EF) and runs of variation selectors are removed. Kept on purpose:
 *     - ZWJ (U+200D) and ZWNJ (U+200C) only between two emoji, or two letters/marks of a non-Latin script
 *       (emoji sequences, Devanagari half forms, Persian ZWNJ); anywhere else they go.
 *     - one variation selector (U+FE00–U+FE0F) after a visible character (emoji presentation).
 *     - tag characters only inside the three RGI subdivision flags (England, Scotland, Wales).
 *  2. Whitespace: every Unicode space and line break becomes one ASCII space; trimmed.
 *  3. NFC normalization.
 *  4. Prompt injection: phrases that address a model (see INJECTION_PATTERNS) are replaced by `[filtered]`
 *     and the result carries the `prompt_injection` flag. The rest of the text is kept. Matching runs on an
 *     NFKC shadow of the text, so full-width or ligature spellings are caught too.
 *  5. Clip: longer than `maxLength` UTF-16 units → cut on a grapheme boundary (on a word boundary when one is
 *     near), trailing punctuation dropped, `…` appended; the result, ellipsis included, fits `maxLength`.
 *
 * Rounds repeat until the text stops changing (at most MAX_ROUNDS). The output is plain text and a fixed point
 * of the plain format: `sanitizeText(sanitizeText(x, o).text, { ...o, format: "plain" }).text` equals
 * `sanitizeText(x, o).text` (for `plain` input, simply `sanitizeText(sanitizeText(x).text)`). Sanitizing an
 * `html` result as html again is not a no-op by design: it would strip the `<tag>` words step 0 kept.
 */
import { decodeHTML } from "entities";
import sanitizeHtml from "sanitize-html";

/** Why a text changed; a result lists each at most once, in this order. */
export const SANITIZE_FLAGS = [
  "html_stripped",
  "control_chars",
  "bidi_controls",
  "tag_chars",
  "invisible_chars",
  "prompt_injection",
  "truncated",
] as const;
export type SanitizeFlag = (typeof SANITIZE_FLAGS)[number];

/** What a field is in its upstream: markup to turn into text, or text as typed. */
export type SanitizeFormat = "html" | "plain";

export interface SanitizeOptions {
  /** Maximum length in UTF-16 code units (what `string.length` and zod's `.max()` count), ellipsis included. */
  maxLength?: number;
  /** `html` (default) for markup fields (RSS/Atom, HTML); `plain` for text-as-typed fields (JSON titles, summaries). */
  format?: SanitizeFormat;
}

export interface SanitizeResult {
  text: string;
  flags: SanitizeFlag[];
}

/** What a neutralized injection phrase is replaced with. */
export const FILTERED = "[filtered]";

const MAX_ROUNDS = 6;
const ELLIPSIS = "…";

/** Sanitize one outside text field; see the module comment for the rules. */
export function sanitizeText(input: string, options: SanitizeOptions = {}): SanitizeResult {
  const maxLength = options.maxLength;
  if (maxLength !== undefined && (!Number.isInteger(maxLength) || maxLength < 1)) {
    throw new RangeError(`sanitizeText: maxLength must be a positive integer, got ${maxLength}`);
  }
  const flags = new Set<SanitizeFlag>();
  let text = typeof input === "string" ? input : String(input ?? "");
  if ((options.format ?? "html") === "html") text = htmlToText(text, flags);
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const next = sanitizeRound(text, maxLength, flags);
    if (next === text) break;
    text = next;
  }
  return { text, flags: SANITIZE_FLAGS.filter((f) => flags.has(f)) };
}

/** The plain helper: the sanitized text alone. */
export function sanitize(input: string, options: SanitizeOptions = {}): string {
  return sanitizeText(input, options).text;
}

function sanitizeRound(input: string, maxLength: number | undefined, flags: Set<SanitizeFlag>): string {
  let text = stripInvisible(input, flags);
  text = normalizeWhitespace(text);
  text = text.normalize("NFC");
  text = neutralizeInjection(text, flags);
  if (maxLength !== undefined && text.length > maxLength) {
    text = clip(text, maxLength);
    flags.add("truncated");
  }
  return text;
}

// ---------------------------------------------------------------------------------------------- HTML

const BLOCK_TAG = /<(\/?)(p|br|div|li|ul|ol|h[1-6]|tr|td|th|table|blockquote|section|article|header|footer|figure|figcaption|img|hr|pre|dd|dt)\b/gi;
/** Elements whose content is not reader text: dropped with the element, when the element is closed. */
const DISCARDED_CONTENT_TAGS = ["script", "style", "textarea", "option", "noscript", "template", "iframe", "object", "svg", "math"];
/** Elements the parser reads to their closing tag: discarded-content ones, and `title`, whose content is raw text. */
const SWALLOWING_TAGS = [...DISCARDED_CONTENT_TAGS, "title"];
/** The opening and closing tag patterns of each swallowing element, built once (matchAll copies a global regex). */
const SWALLOWING_TAG_PATTERNS = SWALLOWING_TAGS.map((tag) => ({
  opening: new RegExp(`<${tag}(?=[\\s/>])[^>]*>`, "gi"),
  closing: new RegExp(`</${tag}\\s*>`, "gi"),
}));

/** Step 0 of the `html` format: markup → text, parsed once. */
function htmlToText(input: string, flags: Set<SanitizeFlag>): string {
  if (!input.includes("<") && !input.includes("&")) return input;
  let text = input;
  if (/<[A-Za-z!/?]/.test(text)) {
    flags.add("html_stripped");
    const markup = dropUnclosedOpenings(escapeUnterminated(text.replace(BLOCK_TAG, " <$1$2")));
    // sanitize-html returns text with & < > " escaped; decodeHTML turns every entity back into its character.
    text = decodeHTML(
      sanitizeHtml(markup, {
        allowedTags: [],
        allowedAttributes: {},
        disallowedTagsMode: "discard",
        nonTextTags: DISCARDED_CONTENT_TAGS,
      }),
    );
  } else {
    text = decodeHTML(text);
  }
  // Double-encoded entities (`&amp;amp;`, `&amp;#233;`) decode further; what they decode to is text, not markup.
  for (let round = 0; round < MAX_ROUNDS && text.includes("&"); round++) {
    const next = decodeHTML(text);
    if (next === text) break;
    text = next;
  }
  return text;
}

/**
 * Remove the opening tags of discarded-content (and raw-text) elements that are never closed (and self-closing ones, which have
 * no content). The parser would treat all the text after an unclosed one as its content and drop it ("XSS in
 * <svg> handling …" → "XSS in"); without its tag that text stays. Openings and closings of one element pair up
 * like brackets, innermost first.
 */
function dropUnclosedOpenings(markup: string): string {
  const unmatched: [number, number][] = [];
  for (const { opening, closing } of SWALLOWING_TAG_PATTERNS) {
    const events = [
      ...[...markup.matchAll(opening)].map((m) => ({ at: m.index, end: m.index + m[0].length, open: !m[0].endsWith("/>") })),
      ...[...markup.matchAll(closing)].map((m) => ({ at: m.index, end: m.index, open: false, close: true })),
    ].sort((a, b) => a.at - b.at);
    const stack: [number, number][] = [];
    for (const e of events) {
      if ("close" in e) stack.pop();
      else if (e.open) stack.push([e.at, e.end]);
      else unmatched.push([e.at, e.end]);
    }
    unmatched.push(...stack);
  }
  if (unmatched.length === 0) return markup;
  // One pass over the markup, front to back (cutting the string once per tag is quadratic on a long text).
  unmatched.sort((a, b) => a[0] - b[0]);
  const parts: string[] = [];
  let from = 0;
  for (const [at, end] of unmatched) {
    if (at < from) continue;
    parts.push(markup.slice(from, at), " ");
    from = end;
  }
  parts.push(markup.slice(from));
  return parts.join("");
}

/**
 * Escape a `<!--` with no `-->` after it and a `<` with no `>` after it: the parser would read everything after
 * them as a comment or a tag and drop it.
 */
function escapeUnterminated(markup: string): string {
  // Only a `<!--` after the last `-->` has none after it (found by position, not by a look-ahead per opening,
  // which is quadratic on a long text full of them).
  const lastEnd = markup.lastIndexOf("-->");
  const from = lastEnd < 0 ? 0 : lastEnd + 3;
  let text = markup.slice(0, from) + markup.slice(from).replaceAll("<!--", "&lt;!--");
  const lastClose = text.lastIndexOf(">");
  text = text.slice(0, lastClose + 1) + text.slice(lastClose + 1).replace(/</g, "&lt;");
  return text;
}

// ------------------------------------------------------------------------------------------ invisible

const RGI_SUBDIVISION_FLAGS = [
  "\u{1F3F4}\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}", // England
  "\u{1F3F4}\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}", // Scotland
  "\u{1F3F4}\u{E0067}\u{E0062}\u{E0077}\u{E006C}\u{E0073}\u{E007F}", // Wales
];
const FLAG_SPLIT = new RegExp(`(${RGI_SUBDIVISION_FLAGS.join("|")})`, "u");

const WHITESPACE_LIKE = /[\t\n\v\f\r\u0085\u2028\u2029\u2800]/;
const BIDI = /^[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]$/u;
const EXTRA_INVISIBLE = /^[\u034F\u115F\u1160\u17B4\u17B5\u3164\uFFA0]$/u;
const JOINER_NEIGHBOUR = /^[\p{L}\p{M}\p{Extended_Pictographic}\u{FE0F}\u{1F3FB}-\u{1F3FF}]$/u;
const LATIN = /^\p{Script=Latin}$/u;
const PICTOGRAPHIC = /^\p{Extended_Pictographic}$/u;

function stripInvisible(text: string, flags: Set<SanitizeFlag>): string {
  if (/^[\x20-\x7E]*$/.test(text)) return text; // printable ASCII: nothing to remove
  return text
    .split(FLAG_SPLIT)
    .map((part) => (RGI_SUBDIVISION_FLAGS.includes(part) ? part : stripInvisiblePart(part, flags)))
    .join("");
}

function stripInvisiblePart(text: string, flags: Set<SanitizeFlag>): string {
  const cps = Array.from(text);
  const out: string[] = [];
  for (let i = 0; i < cps.length; i++) {
    const ch = cps[i]!;
    const cp = ch.codePointAt(0)!;
    if (WHITESPACE_LIKE.test(ch)) {
      out.push(" ");
    } else if (cp >= 0xe0000 && cp <= 0xe007f) {
      flags.add("tag_chars");
    } else if (BIDI.test(ch)) {
      flags.add("bidi_controls");
    } else if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f)) {
      flags.add("control_chars");
    } else if (cp === 0x200c || cp === 0x200d) {
      if (joinerAllowed(out[out.length - 1], cps[i + 1])) out.push(ch);
      else flags.add("invisible_chars");
    } else if (cp >= 0xfe00 && cp <= 0xfe0f) {
      const prev = out[out.length - 1];
      if (prev !== undefined && prev !== " " && !isVariationSelector(prev)) out.push(ch);
      else flags.add("invisible_chars");
    } else if (
      (cp >= 0xe0100 && cp <= 0xe01ef) ||
      EXTRA_INVISIBLE.test(ch) ||
      /^[\p{Cf}\p{Co}\p{Cs}]$/u.test(ch) ||
      isNonCharacter(cp)
    ) {
      flags.add("invisible_chars");
    } else {
      out.push(ch);
    }
  }
  return out.join("");
}

function isVariationSelector(ch: string): boolean {
  const cp = ch.codePointAt(0)!;
  return cp >= 0xfe00 && cp <= 0xfe0f;
}

function isNonCharacter(cp: number): boolean {
  return (cp >= 0xfdd0 && cp <= 0xfdef) || (cp & 0xfffe) === 0xfffe;
}

/** A joiner stays between two emoji, or between two letters/marks neither of which is Latin. */
function joinerAllowed(prev: string | undefined, next: string | undefined): boolean {
  if (prev === undefined || next === undefined) return false;
  if (!JOINER_NEIGHBOUR.test(prev) || !JOINER_NEIGHBOUR.test(next)) return false;
  if (PICTOGRAPHIC.test(next)) return !LATIN.test(prev);
  return !LATIN.test(prev) && !LATIN.test(next) && !/^[\u{FE0F}\u{1F3FB}-\u{1F3FF}]$/u.test(prev);
}

// ----------------------------------------------------------------------------------------- whitespace

function normalizeWhitespace(text: string): string {
  return text.replace(/[\s\u2800]+/gu, " ").trim();
}

// ---------------------------------------------------------------------------------------- injection

/**
 * Phrases that address a language model rather than a reader. Kept narrow on purpose: bare "system prompt",
 * "act as" or "you are now" are common in AI news headlines and are not flagged on their own.
 */
export const INJECTION_PATTERNS: readonly RegExp[] = [
  // ignore / disregard / forget … previous instructions, the above …
  /\b(?:ignore|disregard|forget|override|bypass|skip)\s+(?:(?:all|any|every|the|your|of|my|these|those|prior|previous)\s+)*(?:previous|prior|above|earlier|preceding|foregoing|system|original|initial|existing)\s+(?:instructions?|prompts?|rules|directions?|directives?|guidelines|messages?|commands?|context|constraints)\b/giu,
  /\b(?:ignore|disregard|forget)\s+(?:(?:all|everything|anything)\s+)?(?:of\s+)?(?:the\s+|what(?:'s| is| was)\s+)?above\b/giu,
  /\b(?:forget|ignore|disregard)\s+(?:all\s+)?(?:your|the)\s+(?:instructions|rules|guidelines|training|programming|safety\s+guidelines)\b/giu,
  // asking for the prompt itself, or replacing it
  /\b(?:reveal|print|show|output|repeat|leak|display|dump|tell\s+me)\s+(?:me\s+)?(?:your|the)\s+(?:full\s+|entire\s+|hidden\s+|original\s+)?(?:system\s+prompt|initial\s+prompt|instructions|hidden\s+prompt)\b/giu,
  /\bnew\s+system\s+prompt\b/giu,
  /\b(?:new|updated|real|actual|hidden|secret|important|additional)\s+instructions?\s*:/giu,
  // role takeover
  /\byou\s+are\s+now\s+(?:a|an|the|my|no\s+longer|free|unrestricted|unfiltered|uncensored|jailbroken|DAN|in\s+(?:developer|god|jailbreak|DAN)\s+mode)\b/giu,
  /\b(?:from\s+now\s+on|now|please)[,\s]+(?:you\s+will\s+)?(?:act|behave|respond)\s+as\b/giu,
  /\bact\s+as\s+(?:if\s+you\s+(?:are|were|have)|an?\s+(?:unfiltered|unrestricted|uncensored|jailbroken|evil)|DAN)\b/giu,
  /\bpretend\s+(?:to\s+be|you\s+are|that\s+you\s+are)\s+(?:an?\s+)?(?:unfiltered|unrestricted|uncensored|jailbroken|evil|DAN|different\s+(?:ai|assistant|model))\b/giu,
  // chat-template role markers
  /<\|[^|<>\s]{1,40}\|>/gu,
  /\[\/?INST\]/gu,
  /<<\/?SYS>>/gu,
  /###\s*(?:system|instructions?|assistant|response)\s*:/giu,
  /\[(?:system|assistant)\]/giu,
  /^(?:assistant|system|human)\s*:/iu,
  // jailbreak markers
  /\bdo\s+anything\s+now\b/giu,
  /\bDAN\s+mode\b/gu,
  /\b(?:developer|god|jailbreak|unrestricted)\s+mode\s+(?:enabled|activated|on)\b/giu,
  /\benable\s+(?:developer|god|jailbreak|DAN)\s+mode\b/giu,
  // addressing the model directly
  /\b(?:attention|note\s+to|message\s+to|dear)\s+(?:any\s+|all\s+)?(?:ai\s+)?(?:ai|llms?|language\s+models?|assistants?|agents?|chatbots?|models?)\s*[:,]/giu,
];

function neutralizeInjection(text: string, flags: Set<SanitizeFlag>): string {
  if (text === "") return text;
  const { shadow, starts, ends } = shadowOf(text);
  const spans: [number, number][] = [];
  for (const pattern of INJECTION_PATTERNS) {
    const re = new RegExp(pattern.source, pattern.flags.includes("g") ? pattern.flags : pattern.flags + "g");
    for (const m of shadow.matchAll(re)) {
      if (m[0].length === 0) continue;
      const s = m.index;
      const e = s + m[0].length - 1;
      spans.push([starts[s]!, ends[e]!]);
    }
  }
  if (spans.length === 0) return text;
  flags.add("prompt_injection");
  spans.sort((a, b) => a[0] - b[0]);
  let out = "";
  let pos = 0;
  for (const [s, e] of spans) {
    if (e <= pos) continue;
    out += text.slice(pos, Math.max(pos, s)) + (s >= pos ? FILTERED : "");
    pos = e;
  }
  return out + text.slice(pos);
}

/** An NFKC copy of `text` with, per shadow code unit, the original [start, end) range it came from. */
function shadowOf(text: string): { shadow: string; starts: number[]; ends: number[] } {
  let shadow = "";
  const starts: number[] = [];
  const ends: number[] = [];
  let offset = 0;
  for (const ch of text) {
    const folded = ch.normalize("NFKC");
    for (let k = 0; k < folded.length; k++) {
      starts.push(offset);
      ends.push(offset + ch.length);
    }
    shadow += folded;
    offset += ch.length;
  }
  return { shadow, starts, ends };
}

// --------------------------------------------------------------------------------------------- clip

const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });

function clip(text: string, maxLength: number): string {
  const budget = maxLength - ELLIPSIS.length;
  let cut = "";
  for (const { segment } of segmenter.segment(text)) {
    if (cut.length + segment.length > budget) break;
    cut += segment;
  }
  const space = cut.lastIndexOf(" ");
  if (space > 0 && space >= budget * 0.6) cut = cut.slice(0, space);
  cut = cut.replace(/[\s,;:\-–—]+$/u, "");
  return cut + ELLIPSIS;
}
