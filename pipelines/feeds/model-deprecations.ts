/**
 * Feed `model-deprecations`: the curated calendar of model retirements (pipelines/catalog/model-deprecations.ts).
 * No upstream: it validates the catalog and emits it. Rules checked on top of the entry schema:
 * sunset_date ≥ announced_date; a replacement is one the provider's page names and differs from the model;
 * status agrees with the dates as of `checked` (retired ⇔ sunset_date ≤ checked; announced has no sunset);
 * a model appears once per provider; entries sit under their own provider.
 */
import { CatalogError, parseEntries } from "../catalog/curated-fields.ts";
import { deprecationProviders, type DeprecationProvider } from "../catalog/model-deprecations.ts";
import type { Feed } from "../lib/types.ts";
import { compareBySunset, type DeprecationEntry, deprecationEntrySchema, type ModelDeprecationsSnapshot, modelDeprecationsSnapshotSchema, modelDeprecationsSnapshotType } from "../contract/snapshots/model-deprecations.ts";

export { compareBySunset, deprecationProviderSchema, type ModelDeprecationsSnapshot, modelDeprecationsSnapshotSchema } from "../contract/snapshots/model-deprecations.ts";

function checkEntry(p: DeprecationProvider, e: DeprecationEntry): void {
  const at = `model-deprecations: ${p.provider}/${e.model}`;
  if (e.provider !== p.provider) throw new CatalogError(`${at}: entry names provider "${e.provider}"`);
  if (e.announced_date && e.sunset_date && e.sunset_date < e.announced_date) {
    throw new CatalogError(`${at}: sunset_date ${e.sunset_date} is before announced_date ${e.announced_date}`);
  }
  if (e.replacement !== null) {
    if (e.replacement === e.model) throw new CatalogError(`${at}: replacement is the model itself`);
    if (!p.replacements.includes(e.replacement)) {
      throw new CatalogError(`${at}: replacement "${e.replacement}" is not a known ${p.provider} model (add it to replacements)`);
    }
  }
  const past = e.sunset_date !== null && e.sunset_date <= e.checked;
  if ((e.status === "retired") !== past) {
    throw new CatalogError(`${at}: status ${e.status} disagrees with sunset_date ${e.sunset_date ?? "null"} as of ${e.checked}`);
  }
  if (e.status === "announced" && e.sunset_date !== null) throw new CatalogError(`${at}: status announced with a sunset_date`);
}

/** Validate the providers' calendars and build the snapshot body; throws CatalogError on bad data. */
export function buildModelDeprecationsSnapshot(providers: readonly DeprecationProvider[]): ModelDeprecationsSnapshot {
  const seenProviders = new Set<string>();
  const blocks = providers.map((p) => {
    if (seenProviders.has(p.provider)) throw new CatalogError(`model-deprecations: provider "${p.provider}" listed twice`);
    seenProviders.add(p.provider);
    const entries = parseEntries(`model-deprecations/${p.provider}`, deprecationEntrySchema, p.entries);
    const models = new Set<string>();
    for (const e of entries) {
      if (models.has(e.model)) throw new CatalogError(`model-deprecations: ${p.provider}/${e.model} listed twice`);
      models.add(e.model);
      checkEntry(p, e);
    }
    // A replacement that is itself retired before the model it replaces would be a bad recommendation.
    for (const e of entries) {
      const r = e.replacement === null ? undefined : entries.find((x) => x.model === e.replacement);
      if (r?.sunset_date && e.sunset_date && r.sunset_date <= e.sunset_date) {
        throw new CatalogError(`model-deprecations: ${p.provider}/${e.model}: replacement ${r.model} retires on ${r.sunset_date}, no later than the model`);
      }
    }
    return { provider: p.provider, name: p.name, source: p.source, entries: entries.sort(compareBySunset) };
  });
  const all = blocks.flatMap((b) => b.entries);
  if (all.length === 0) throw new CatalogError("model-deprecations: catalog is empty");
  const lastUpdated = all.map((e) => e.checked).sort().at(-1)!;
  return modelDeprecationsSnapshotSchema.parse({
    lastUpdated,
    providers: blocks.sort((a, b) => a.provider.localeCompare(b.provider)),
  });
}

/** The model deprecations feed: daily, offline, curated. */
export const modelDeprecationsFeed = {
  ...modelDeprecationsSnapshotType,
  urls: () => [],
  async run() {
    const data = buildModelDeprecationsSnapshot(deprecationProviders);
    const rows = data.providers.reduce((n, p) => n + p.entries.length, 0);
    return { data, rows, sources: [{ id: "catalog:model-deprecations", ok: true, rows }] };
  },
} satisfies Feed<ModelDeprecationsSnapshot>;
