/** Field schemas shared by the curated snapshot types: ids, https URLs, source lists, check dates, one-line text. */
import { z } from "zod";

/** A stable lowercase id: letters, digits and single dashes (`text-embedding-3-small`). */
export const catalogId = z.string().regex(/^[a-z0-9]+(?:[-.][a-z0-9]+)*$/, "lowercase id of letters, digits, '-' or '.'");

/** An https URL. */
export const httpsUrl = z.url({ protocol: /^https$/ });

/**
 * An http or https URL: every link a snapshot publishes is one of these, so a `javascript:` or `data:` URL from
 * an upstream never reaches an agent or the dashboard as a link.
 */
export const httpUrl = z.url({ protocol: /^https?$/ });

/** The official page(s) an entry was checked against: at least one, each an https URL, no repeats. */
export const sourceUrls = z
  .array(httpsUrl)
  .min(1)
  .refine((urls) => new Set(urls).size === urls.length, "source URLs must not repeat");

/** The date (YYYY-MM-DD) a maintainer last checked the entry against its sources. */
export const checkedDate = z.iso.date();

/** A single line of text (no line breaks), trimmed, non-empty, at most `max` characters. */
export function oneLine(max: number) {
  return z
    .string()
    .min(1)
    .max(max)
    .refine((s) => !/[\r\n]/.test(s) && s.trim() === s, "one trimmed line of text");
}
