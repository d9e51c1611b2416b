/**
 * The passages of a 10-K or 10-Q that speak of the future: each risk factor of Item 1A (its heading, the group it
 * is filed under, its text), the forward-looking statements notice, and an MD&A outlook where there is one.
 * Deterministic rules over the document's visible blocks (html-blocks.ts):
 *
 * - Item 1A runs from the "Item 1A. Risk Factors" heading that opens the longest section (a contents line, which
 *   carries a page number, never matches) to the next "Item …" heading. A 10-Q's Part II Item 1A is found the same
 *   way; some filers set the heading in a one-row table, which counts too.
 * - Inside it, a heading is a block set at least 80 % in bold or italic, at most 450 characters long. A heading
 *   followed directly by another heading, or worded "Risks related to …" / "General risks", is a group; any other
 *   heading opens a risk factor whose text is every block up to the next heading. The summary bullets that some
 *   filers put first belong to no heading and are dropped, as are the introduction and "Risk Factors Summary".
 * - Page furniture is dropped: page numbers, "Table of Contents", and short lines repeated on five pages or more.
 *   A paragraph cut by a page break (the next block begins in lower case) is joined again.
 * - The forward-looking statements notice: the text under a heading that names forward-looking statements; the
 *   outlook: the text under a heading "Outlook" (or ending in "Outlook").
 */
import { type FilingPassage, type FilingSection, MAX_HEADING, MAX_PASSAGE_TEXT, MAX_PASSAGES } from "../../contract/snapshots/sec-filing-sections.ts";
import type { HtmlBlock } from "./html-blocks.ts";

const EMPHASIS = 0.8;
const ITEM_HEADING = /^item\s*(\d{1,2}[a-z]?)\s*[.:\-–—]?\s*(.*)$/i;
const RISK_ITEM = /^item\s*1a\s*[.:\-–—]?\s*risk\s+factors\.?$/i;
const GROUP_WORDING = /^(?:(?:risks?|factors)\b.{0,40}\b(?:related|relating|associated|pertaining|regarding)\b|general\s+risks?\b|other\s+risks?\b|risks?\s+factors?\s+summary\b|summary\s+of\s+risk\s+factors\b)/i;
const SKIPPED_HEADINGS = /^(risk\s+factors(\s+summary)?|summary(\s+of)?\s+risk\s+factors|table\s+of\s+contents)\.?$/i;
const FLS_HEADING = /forward[\s-]+looking\s+statements?\.?$/i;
const OUTLOOK_HEADING = /^(?:[\w ,&-]{0,40}\s)?outlook\.?$/i;

const isEmphasized = (b: HtmlBlock) => Math.max(b.bold, b.italic) >= EMPHASIS;
const isHeading = (b: HtmlBlock) => !b.inTable && isEmphasized(b) && b.text.length <= MAX_HEADING;
/** An "Item …" heading of the form (a short block; a sentence that cites an item is longer). */
const isItemHeading = (b: HtmlBlock) => b.text.length <= 200 && ITEM_HEADING.test(b.text);

/** Drop page furniture and join paragraphs a page break cut in two. */
export function readingBlocks(blocks: readonly HtmlBlock[]): HtmlBlock[] {
  const counts = new Map<string, number>();
  for (const b of blocks) if (b.text.length <= 100) counts.set(b.text, (counts.get(b.text) ?? 0) + 1);
  const out: HtmlBlock[] = [];
  let furnitureSincePrevious = false;
  for (const b of blocks) {
    const furniture = /^(\d{1,3}|[ivxl]{1,6}|page\s+\d+(\s+of\s+\d+)?|table\s+of\s+contents|index)$/i.test(b.text) || (b.text.length <= 100 && (counts.get(b.text) ?? 0) >= 5 && !RISK_ITEM.test(b.text));
    if (furniture) {
      furnitureSincePrevious = true;
      continue;
    }
    const previous = out[out.length - 1];
    if (furnitureSincePrevious && previous && !previous.inTable && !b.inTable && !isHeading(b) && /^[a-z(]/.test(b.text) && !/[.:;!?”")]$/.test(previous.text)) {
      out[out.length - 1] = { ...previous, text: `${previous.text} ${b.text}` };
    } else {
      out.push(b);
    }
    furnitureSincePrevious = false;
  }
  return out;
}

/** Index range [start, end) of the blocks after the heading at `start - 1` up to the next "Item …" heading. */
function itemSpan(blocks: readonly HtmlBlock[], headingAt: number): [number, number] {
  let end = headingAt + 1;
  while (end < blocks.length) {
    const b = blocks[end]!;
    if (isItemHeading(b) && !RISK_ITEM.test(b.text)) break;
    end++;
  }
  return [headingAt + 1, end];
}

function clip(paragraphs: string[]): string {
  let text = "";
  for (const p of paragraphs) {
    const next = text === "" ? p : `${text}\n${p}`;
    if (next.length > MAX_PASSAGE_TEXT) return text === "" ? p.slice(0, MAX_PASSAGE_TEXT) : text;
    text = next;
  }
  return text;
}

/** The risk factors of the Item 1A section in `blocks` (reading blocks), in order. */
export function riskFactorPassages(blocks: readonly HtmlBlock[]): FilingPassage[] {
  let start = -1;
  let end = -1;
  for (let i = 0; i < blocks.length; i++) {
    if (!RISK_ITEM.test(blocks[i]!.text)) continue;
    const [from, to] = itemSpan(blocks, i);
    if (start < 0 || to - from >= end - start) [start, end] = [from, to];
  }
  if (start < 0) return [];
  const passages: FilingPassage[] = [];
  let group: string | null = null;
  let open: { heading: string; group: string | null; paragraphs: string[] } | null = null;
  const close = () => {
    if (open && open.paragraphs.length > 0) passages.push({ section: "risk_factors", group: open.group, heading: open.heading, text: clip(open.paragraphs) });
    open = null;
  };
  for (let i = start; i < end; i++) {
    const b = blocks[i]!;
    if (isHeading(b)) {
      close();
      const next = blocks[i + 1];
      if (SKIPPED_HEADINGS.test(b.text) || RISK_ITEM.test(b.text)) continue;
      if (GROUP_WORDING.test(b.text) || (next !== undefined && i + 1 < end && isHeading(next) && b.text.length <= 200)) {
        group = b.text.replace(/[.:]$/, "");
        continue;
      }
      open = { heading: b.text, group, paragraphs: [] };
      continue;
    }
    if (open) (open as { paragraphs: string[] }).paragraphs.push(b.text);
  }
  close();
  return passages;
}

/** The text under the first heading matching `pattern` (outside tables), up to the next heading. */
function passageUnder(blocks: readonly HtmlBlock[], pattern: RegExp, section: FilingSection): FilingPassage | null {
  const at = blocks.findIndex((b) => isHeading(b) && b.text.length <= 120 && pattern.test(b.text));
  if (at < 0) return null;
  const paragraphs: string[] = [];
  for (let i = at + 1; i < blocks.length; i++) {
    const b = blocks[i]!;
    if (isHeading(b) || (!b.inTable && isItemHeading(b))) break;
    if (!b.inTable) paragraphs.push(b.text);
  }
  if (paragraphs.length === 0) return null;
  return { section, group: null, heading: blocks[at]!.text.replace(/[.:]$/, ""), text: clip(paragraphs) };
}

/** Every forward-looking passage of a filing document's blocks: risk factors, the notice, the outlook. */
export function filingPassages(rawBlocks: readonly HtmlBlock[]): FilingPassage[] {
  const blocks = readingBlocks(rawBlocks);
  const passages: FilingPassage[] = [];
  const notice = passageUnder(blocks, FLS_HEADING, "forward_looking_statements");
  if (notice) passages.push(notice);
  const outlook = passageUnder(blocks, OUTLOOK_HEADING, "outlook");
  if (outlook) passages.push(outlook);
  passages.push(...riskFactorPassages(blocks));
  return passages.slice(0, MAX_PASSAGES);
}
