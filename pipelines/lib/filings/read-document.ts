/**
 * A filing document read into the sanitized passages the `sec-filing-sections` snapshot keeps: the visible blocks
 * (html-blocks.ts), the forward-looking passages among them (sections.ts), every heading and paragraph through the
 * shared text sanitizer (HTML, invisible characters, instruction-like phrases, length caps).
 */
import type { FilingPassage } from "../../contract/snapshots/sec-filing-sections.ts";
import { MAX_HEADING, MAX_PASSAGE_TEXT } from "../../contract/snapshots/sec-filing-sections.ts";
import { sanitize } from "../sanitize.ts";
import { htmlBlocks } from "./html-blocks.ts";
import { filingPassages } from "./sections.ts";

/** The sanitized forward-looking passages of a filing document (HTML or inline XBRL as EDGAR serves it). */
export function readFilingDocument(html: string): FilingPassage[] {
  const out: FilingPassage[] = [];
  for (const p of filingPassages(htmlBlocks(html))) {
    const heading = sanitize(p.heading, { maxLength: MAX_HEADING });
    const group = p.group === null ? null : sanitize(p.group, { maxLength: MAX_HEADING }) || null;
    const text = p.text
      .split("\n")
      .map((paragraph) => sanitize(paragraph, { maxLength: MAX_PASSAGE_TEXT }))
      .filter((paragraph) => paragraph !== "")
      .join("\n")
      .slice(0, MAX_PASSAGE_TEXT);
    if (heading === "" || text === "") continue;
    out.push({ section: p.section, group, heading, text });
  }
  return out;
}
