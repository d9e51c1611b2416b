/**
 * Feed `afta-adopters`: fetch every listed site's `/.well-known/agent-fair-trade.json` (pipelines/catalog/
 * afta-adopters.ts) through the shared client and classify it:
 * - `valid`: JSON with the required manifest fields (see pipelines/sources/afta-manifest.ts), with its version;
 * - `invalid`: reachable, but not JSON, not an object, missing or malformed fields, too large;
 * - `unreachable`: HTTP error status, timeout, network failure or open circuit.
 * The run fails (the previous snapshot stays) only when every site is unreachable, which says more about our
 * network than about the sites. Check times are not in the body: the route serves the manifest's lastSuccess.
 */
import { AFTA_ADOPTERS, manifestUrl, type AftaAdopter } from "../catalog/afta-adopters.ts";
import { HttpError } from "../lib/http/errors.ts";
import type { Feed, FeedContext, FeedOutput, SourceHealth } from "../lib/types.ts";
import { classifyManifest } from "../sources/afta-manifest.ts";
import { type AftaAdopterResult, type AftaAdoptersSnapshot, aftaAdoptersSnapshotSchema, aftaAdoptersSnapshotType } from "../contract/snapshots/afta-adopters.ts";

export { AFTA_STATUSES, type AftaAdopterResult, aftaAdopterResultSchema, type AftaAdoptersSnapshot, aftaAdoptersSnapshotSchema } from "../contract/snapshots/afta-adopters.ts";

const MAX_MANIFEST_BYTES = 256 * 1024;

/** Every listed site was unreachable. */
export class AftaAdoptersFeedError extends Error {
  override name = "AftaAdoptersFeedError";
}

/** HTTP failures that still show the site answered (so its manifest is invalid, not unreachable). */
const ANSWERED: ReadonlySet<string> = new Set(["too_large", "wrong_content_type", "malformed_body"]);

/** Fetch and classify one site's manifest; never throws. */
export async function checkAdopter(ctx: FeedContext, adopter: AftaAdopter): Promise<AftaAdopterResult> {
  const url = manifestUrl(adopter.domain);
  try {
    const res = await ctx.http.getText(url, { headers: { Accept: "application/json" }, maxBytes: MAX_MANIFEST_BYTES });
    const check = classifyManifest(res.body);
    return check.status === "valid"
      ? { domain: adopter.domain, status: "valid", version: check.version }
      : { domain: adopter.domain, status: "invalid", reason: check.reason };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (error instanceof HttpError && ANSWERED.has(error.code)) return { domain: adopter.domain, status: "invalid", reason: message };
    return { domain: adopter.domain, status: "unreachable", reason: message };
  }
}

/** Build the adopters snapshot from `adopters` (the catalog by default). */
export async function runAftaAdopters(ctx: FeedContext, adopters: readonly AftaAdopter[] = AFTA_ADOPTERS): Promise<FeedOutput<AftaAdoptersSnapshot>> {
  const results = await Promise.all(adopters.map((a) => checkAdopter(ctx, a)));
  if (results.length > 0 && results.every((r) => r.status === "unreachable")) {
    throw new AftaAdoptersFeedError(`afta-adopters: all ${results.length} sites unreachable; first: ${results[0]?.reason ?? "none"}`);
  }
  const sources: SourceHealth[] = results.map((r) => ({
    id: r.domain,
    ok: r.status !== "unreachable",
    ...(r.status === "unreachable" && r.reason ? { error: r.reason } : {}),
  }));
  for (const r of results) if (r.status !== "valid") ctx.notice(`afta-adopters: ${r.domain} ${r.status}: ${r.reason ?? ""}`);
  const data = aftaAdoptersSnapshotSchema.parse({ adopters: [...results].sort((a, b) => a.domain.localeCompare(b.domain)) });
  return { data, rows: data.adopters.length, sources };
}

/** The `afta-adopters` snapshot type (API: GET /api/afta/adopters). */
export const aftaAdoptersFeed: Feed<AftaAdoptersSnapshot> = {
  ...aftaAdoptersSnapshotType,
  urls: () => AFTA_ADOPTERS.map((a) => manifestUrl(a.domain)),
  run: (ctx) => runAftaAdopters(ctx),
};
