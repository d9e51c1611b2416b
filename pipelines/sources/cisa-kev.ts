/**
 * The CISA Known Exploited Vulnerabilities catalog,
 * `GET https://www.cisa.gov/sites/default/files/feeds/known_exploited_vulnerabilities.json` (public domain, no
 * key; schema https://github.com/cisagov/kev-data): `{ catalogVersion, dateReleased, count, vulnerabilities:
 * [{ cveID, vendorProject, product, dateAdded, dueDate, knownRansomwareCampaignUse, … }] }`. About 1.5 MB.
 *
 * `parseKev` reads it tolerantly (an entry without a readable CVE id is skipped and counted); `kevEntry` maps one
 * entry to the strict row the snapshot keeps. Dates (pipelines/lib/time.ts): `dateAdded` is a real day between 1990
 * and a day after the fetch time, else null, and the entry is kept (a CVE the catalog lists as exploited stays
 * exploited whatever its date says); `dueDate` may lie ahead and is null only when it is not a real day (or beyond
 * year 9999); `dateReleased`, the catalog's own time,
 * must be usable like `dateAdded`, else the catalog is unreadable (the feed keeps the previous one).
 */
import { z } from "zod";
import { sanitize } from "../lib/sanitize.ts";
import { expiryDay, pastDay, pastTime } from "../lib/time.ts";
import { kevEntrySchema, type KevEntry } from "../contract/snapshots/security-advisories.ts";

export const KEV_URL = "https://www.cisa.gov/sites/default/files/feeds/known_exploited_vulnerabilities.json";

/** A body that is not the catalog. */
export class KevParseError extends Error {
  override name = "KevParseError";
}

const entry = z.looseObject({
  cveID: z.string(),
  vendorProject: z.string().nullish(),
  product: z.string().nullish(),
  dateAdded: z.string().nullish(),
  dueDate: z.string().nullish(),
  knownRansomwareCampaignUse: z.string().nullish(),
});
const catalog = z.looseObject({
  catalogVersion: z.string(),
  dateReleased: z.string(),
  count: z.number().int().nonnegative().nullish(),
  vulnerabilities: z.array(z.unknown()),
});

/** The parsed catalog. */
export interface KevCatalog {
  catalog_version: string;
  date_released: string;
  count: number;
  entries: KevEntry[];
  skipped: number;
}

/** Read the catalog fetched at `now`; throws KevParseError on a body that is not it. */
export function parseKev(body: string, now: Date): KevCatalog {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw new KevParseError("KEV catalog is not JSON");
  }
  const parsed = catalog.safeParse(json);
  if (!parsed.success) throw new KevParseError(`not the KEV catalog: ${parsed.error.issues[0]?.path.join(".") ?? ""} ${parsed.error.issues[0]?.message ?? ""}`);
  const released = pastTime(parsed.data.dateReleased, now);
  if (released === null) throw new KevParseError(`KEV dateReleased is not a usable time: ${JSON.stringify(parsed.data.dateReleased.slice(0, 40))}`);
  const entries: KevEntry[] = [];
  let skipped = 0;
  for (const raw of parsed.data.vulnerabilities) {
    const e = entry.safeParse(raw);
    const row = e.success ? kevEntry(e.data, now) : null;
    if (row === null) skipped += 1;
    else entries.push(row);
  }
  return {
    catalog_version: sanitize(parsed.data.catalogVersion, { maxLength: 40 }),
    date_released: released,
    count: parsed.data.count ?? parsed.data.vulnerabilities.length,
    entries,
    skipped,
  };
}

function kevEntry(e: z.infer<typeof entry>, now: Date): KevEntry | null {
  const cve = e.cveID.trim().toUpperCase();
  const added = pastDay(e.dateAdded?.trim().slice(0, 10), now);
  if (!/^CVE-\d{4}-\d{4,}$/.test(cve)) return null;
  const due = expiryDay(e.dueDate?.trim().slice(0, 10));
  return kevEntrySchema.parse({
    cve_id: cve,
    vendor_project: sanitize(e.vendorProject ?? "", { maxLength: 120 }),
    product: sanitize(e.product ?? "", { maxLength: 120 }),
    date_added: added,
    due_date: due,
    ransomware: (e.knownRansomwareCampaignUse ?? "").trim().toLowerCase() === "known",
  });
}
