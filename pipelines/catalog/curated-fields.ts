/**
 * The helpers the curated feeds share: id uniqueness, the newest check date and entry parsing. The fields every
 * curated entry carries (source URLs, check date …) are part of the contract (pipelines/contract/fields.ts).
 */
import { z } from "zod";

export { catalogId, checkedDate, httpsUrl, oneLine, sourceUrls } from "../contract/fields.ts";

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
