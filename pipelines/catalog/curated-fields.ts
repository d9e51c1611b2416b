/**
 * Fields every hand-curated catalog entry carries (its source URLs and the date a maintainer checked it),
 * and the helpers the curated feeds share: id uniqueness and the newest check date.
 */
import { z } from "zod";

/** A stable lowercase id: letters, digits and single dashes (`text-embedding-3-small`). */
export const catalogId = z.string().regex(/^[a-z0-9]+(?:[-.][a-z0-9]+)*$/, "lowercase id of letters, digits, '-' or '.'");

/** An https URL. */
export const httpsUrl = z.url({ protocol: /^https$/ });

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

/** Thrown when a curated catalog fails its own rules (duplicate id, bad field). */
export class CatalogError extends Error {
  override name = "CatalogError";
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** Throw a CatalogError naming the first id that appears twice. */
export function assertUniqueIds(catalog: string, entries: readonly { id: string }[]): void {
  const seen = new Set<string>();
  for (const { id } of entries) {
    if (seen.has(id)) throw new CatalogError(`${catalog}: duplicate id "${id}"`);
    seen.add(id);
  }
}

/** The newest `checked` date among the entries (ISO dates sort as strings); the data's own last update. */
export function newestChecked(catalog: string, entries: readonly { checked: string }[]): string {
  let newest: string | undefined;
  for (const { checked } of entries) if (newest === undefined || checked > newest) newest = checked;
  if (newest === undefined) throw new CatalogError(`${catalog}: catalog is empty, no checked date to report`);
  return newest;
}

/** Parse every entry with `schema`, naming the entry (by index and id) whose validation failed. */
export function parseEntries<T>(catalog: string, schema: z.ZodType<T>, entries: readonly unknown[]): T[] {
  return entries.map((entry, index) => {
    const result = schema.safeParse(entry);
    if (!result.success) {
      const id = typeof entry === "object" && entry !== null && "id" in entry ? String(entry.id) : "?";
      throw new CatalogError(`${catalog}: entry #${index} (id "${id}") is invalid: ${z.prettifyError(result.error)}`, {
        cause: result.error,
      });
    }
    return result.data;
  });
}
