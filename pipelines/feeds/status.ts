/**
 * The `status` snapshot: every catalog provider's official status page, fetched concurrently through the
 * shared client, parsed by the source for its format and normalized to the spec's service status entry.
 * A provider whose page fails (HTTP error, unreadable body) is kept with status `unknown` and no
 * components, and its source health carries the error; the run fails only when every provider fails.
 * Also writes one `status_samples` warehouse row per provider per run.
 */
import { type StatusFormat, type StatusProvider, statusProviders } from "../catalog/status-providers.ts";
import type { Feed, FeedContext, FeedOutput, SourceHealth, WarehouseBatch } from "../lib/types.ts";
import { withSourceHealth } from "../lib/types.ts";
import { betterStackSource } from "../sources/status-betterstack.ts";
import { type StatusMeta } from "../sources/status-common.ts";
import { googleCloudSource } from "../sources/status-google-cloud.ts";
import { rssStatusSource } from "../sources/status-rss.ts";
import { statuspageSource } from "../sources/status-statuspage.ts";
import { statusEntry, type StatusEntry, statusSnapshot, type StatusSnapshot, statusSnapshotType } from "../contract/snapshots/status.ts";

export { statusSnapshot, type StatusSnapshot } from "../contract/snapshots/status.ts";

/**
 * Turn a fetched body into the provider's entry with the source for its format. `notice` receives a line when
 * the source skipped unreadable items (a source's parsed value with a `skipped` count, as Statuspage's).
 */
type Reader = (body: string, url: string, now: Date, meta: StatusMeta, notice?: (line: string) => void) => StatusEntry[];

function reader<P>(source: {
  parse(body: string): P;
  normalize(parsed: P, ctx: { url: string; now: Date; meta: StatusMeta }): StatusEntry[];
}): Reader {
  return (body, url, now, meta, notice) => {
    const parsed = source.parse(body);
    const skipped = (parsed as { skipped?: unknown }).skipped;
    if (typeof skipped === "number" && skipped > 0) notice?.(`status: ${meta.provider} had ${skipped} unreadable components (skipped)`);
    return source.normalize(parsed, { url, now, meta });
  };
}

/** One reader per catalog format; adding a format means adding a source and a line here. */
export const statusReaders: Record<StatusFormat, Reader> = {
  statuspage: reader(statuspageSource),
  betterstack: reader(betterStackSource),
  "google-cloud": reader(googleCloudSource),
  rss: reader(rssStatusSource),
};

const ACCEPT: Record<StatusFormat, string> = {
  statuspage: "application/json",
  betterstack: "application/json",
  "google-cloud": "application/json",
  rss: "application/rss+xml, application/atom+xml, application/xml;q=0.9, text/xml;q=0.8",
};

function metaOf(p: StatusProvider): StatusMeta {
  return {
    provider: p.provider,
    name: p.name,
    statusPageUrl: p.statusPageUrl,
    ...(p.components ? { components: p.components } : {}),
    ...(p.activeHours !== undefined ? { activeHours: p.activeHours } : {}),
  };
}

interface ProviderResult {
  entry: StatusEntry;
  health: SourceHealth;
}

async function checkProvider(ctx: FeedContext, p: StatusProvider): Promise<ProviderResult> {
  const meta = metaOf(p);
  try {
    const res = await ctx.http.getText(p.endpoint, { headers: { accept: ACCEPT[p.format] } });
    if (res.status < 200 || res.status >= 300) throw new Error(`GET ${p.endpoint} failed: ${res.status}`);
    const entries = statusReaders[p.format](res.body, p.endpoint, ctx.now, meta, (line) => ctx.notice(line));
    const entry = entries[0];
    if (!entry || entries.length !== 1) throw new Error(`${p.format} source gave ${entries.length} entries for ${p.endpoint}, expected 1`);
    return { entry: statusEntry.parse(entry), health: { id: p.provider, ok: true, rows: entry.components.length } };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    ctx.notice(`status: ${p.provider} reported unknown: ${message}`);
    return {
      entry: { name: p.name, provider: p.provider, status: "unknown", statusPageUrl: p.statusPageUrl, components: [] },
      health: { id: p.provider, ok: false, error: message },
    };
  }
}

/** Every provider failed: nothing trustworthy to write. */
export class StatusFeedError extends Error {
  override name = "StatusFeedError";
}

/** `status_samples` rows: one per provider as read by the run at `ts` (ISO 8601, UTC). */
export function statusSampleRows(services: StatusSnapshot["services"], ts: string): WarehouseBatch {
  return {
    table: "status_samples",
    key: ["ts", "provider"],
    rows: services.map((s) => ({
      ts,
      date: ts.slice(0, 10),
      provider: s.provider,
      status: s.status,
      components_total: s.components.length,
      components_degraded: s.components.filter((c) => c.status === "degraded").length,
      components_down: s.components.filter((c) => c.status === "down").length,
    })),
  };
}

/** Build the status snapshot and warehouse rows from a list of providers (the catalog by default). */
export async function runStatus(ctx: FeedContext, providers: StatusProvider[] = statusProviders): Promise<FeedOutput<StatusSnapshot>> {
  const results = await Promise.all(providers.map((p) => checkProvider(ctx, p)));
  const sources = results.map((r) => r.health);
  if (results.length > 0 && sources.every((s) => !s.ok)) {
    throw withSourceHealth(new StatusFeedError(`status: all ${results.length} providers failed; first error: ${sources[0]?.error ?? "none"}`), sources);
  }
  const services = results.map((r) => r.entry).sort((a, b) => (a.provider < b.provider ? -1 : a.provider > b.provider ? 1 : 0));
  const warehouse = [statusSampleRows(services, ctx.now.toISOString())];
  const data = statusSnapshot.parse({ services });
  return { data, rows: services.length, sources, warehouse };
}

/** The provider status feed (API: GET /api/status, /api/status/summary). */
export const statusFeed: Feed<StatusSnapshot> = {
  ...statusSnapshotType,
  urls: () => statusProviders.map((p) => p.endpoint),
  historyRows: (data, at) => [statusSampleRows(data.services, at.observedAt)],
  run: (ctx) => runStatus(ctx),
};
