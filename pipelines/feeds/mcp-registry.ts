/**
 * The `mcp-registry` snapshot: the official MCP registry's current servers, paged through once a day
 * (`/v0/servers?limit=100`, then `&cursor=<metadata.nextCursor>` until a page has none; at most MAX_PAGES).
 *
 * - Counted: the latest version (isLatest) of each active server; deprecated and deleted servers and older
 *   versions are not. Deduplicated by name (a server seen twice while paging keeps its most recently updated
 *   copy).
 * - `summary.delta_1d` compares the count with the dated snapshot of the previous UTC day; it is null (and
 *   `previous_date` null) when that day has no snapshot. `complete` is false when paging stopped early (the
 *   page cap, or a cursor that repeats); the count is then a lower bound.
 * - Any page failing fails the run (a partial listing would give a false count and delta); so does a listing
 *   with no current server at all.
 * - Warehouse: one `mcp_registry_daily` row { date, count, delta_1d } keyed by date.
 */
import { z } from "zod";
import { utcDate } from "../lib/store/snapshot-store.ts";
import type { Feed, FeedContext, FeedOutput, WarehouseBatch } from "../lib/types.ts";
import { type McpRegistryPage, mcpRegistrySource } from "../sources/mcp-registry.ts";
import { mcpRegistrySnapshot, type McpRegistrySnapshot, mcpRegistrySnapshotType, type McpServerRow } from "../contract/snapshots/mcp-registry.ts";

export { mcpRegistrySnapshot, type McpRegistrySnapshot } from "../contract/snapshots/mcp-registry.ts";

/** First page of the listing. */
export const MCP_REGISTRY_URL = "https://registry.modelcontextprotocol.io/v0/servers?limit=100";
/** Pages read at most in one run. */
export const MAX_PAGES = 200;

/** The URL of the page after `cursor` (the first page without one). */
export function pageUrl(cursor?: string | null): string {
  return cursor ? `${MCP_REGISTRY_URL}&cursor=${encodeURIComponent(cursor)}` : MCP_REGISTRY_URL;
}

/** A page that is not a listing, or no current server in the whole listing. */
export class McpRegistryFeedError extends Error {
  override name = "McpRegistryFeedError";
}

const previousShape = z.looseObject({ summary: z.looseObject({ count: z.number().int().nonnegative() }) });

/** Page through the listing; rows of current servers in listing order, plus paging facts. */
async function readListing(ctx: FeedContext, maxPages: number): Promise<{ rows: McpServerRow[]; pages: number; seen: number; complete: boolean }> {
  const rows: McpServerRow[] = [];
  const cursors = new Set<string>();
  let cursor: string | null = null;
  let pages = 0;
  let seen = 0;
  let invalid = 0;
  for (;;) {
    if (pages >= maxPages) {
      ctx.notice(`mcp-registry: stopped after ${maxPages} pages with more to read (next cursor ${JSON.stringify(cursor)}); count is a lower bound`);
      return { rows, pages, seen, complete: false };
    }
    const url = pageUrl(cursor);
    const res = await ctx.http.getText(url, { headers: { accept: "application/json" }, expectContentType: ["json"] });
    let page: McpRegistryPage;
    try {
      page = mcpRegistrySource.parse(res.body);
    } catch (error) {
      throw new McpRegistryFeedError(`mcp-registry: page ${url}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
    pages += 1;
    seen += page.entries.length + page.invalid;
    invalid += page.invalid;
    rows.push(...mcpRegistrySource.normalize(page, { url, now: ctx.now, meta: undefined }));
    if (page.nextCursor === null) break;
    if (cursors.has(page.nextCursor)) {
      ctx.notice(`mcp-registry: cursor ${JSON.stringify(page.nextCursor)} came back twice; stopped paging`);
      return { rows, pages, seen, complete: false };
    }
    cursors.add(page.nextCursor);
    cursor = page.nextCursor;
  }
  if (invalid > 0) ctx.notice(`mcp-registry: ${invalid} listing entries had no readable server name or version and were skipped`);
  return { rows, pages, seen, complete: true };
}

/** One row per name: the most recently updated copy (the first seen on a tie). */
export function dedupeByName(rows: McpServerRow[]): McpServerRow[] {
  const byName = new Map<string, McpServerRow>();
  for (const row of rows) {
    const existing = byName.get(row.name);
    if (!existing || (row.updated_at ?? "") > (existing.updated_at ?? "")) byName.set(row.name, row);
  }
  return [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

function tally(servers: McpServerRow[], pick: (s: McpServerRow) => string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const s of servers) for (const k of pick(s)) out[k] = (out[k] ?? 0) + 1;
  return out;
}

/** The UTC day before `now`. */
export function previousUtcDay(now: Date): string {
  return utcDate(new Date(now.getTime() - 86_400_000));
}

/** The `mcp_registry_daily` row of one UTC day: the registry's size and its change since the day before. */
export function mcpRegistryDailyRows(snapshot: McpRegistrySnapshot, date: string): WarehouseBatch {
  return { table: "mcp_registry_daily", key: ["date"], rows: [{ date, count: snapshot.summary.count, delta_1d: snapshot.summary.delta_1d }] };
}

/** Build the snapshot (and its warehouse row) from the live listing. */
export async function runMcpRegistry(ctx: FeedContext, options: { maxPages?: number } = {}): Promise<FeedOutput<McpRegistrySnapshot>> {
  const listing = await readListing(ctx, options.maxPages ?? MAX_PAGES);
  const servers = dedupeByName(listing.rows);
  if (servers.length === 0) {
    throw new McpRegistryFeedError(`mcp-registry: ${listing.seen} entries on ${listing.pages} pages but no latest version of an active server`);
  }

  const previousDate = previousUtcDay(ctx.now);
  const raw = await ctx.dated<unknown>("mcp-registry", previousDate);
  const previous = raw === undefined ? undefined : previousShape.safeParse(raw);
  let previousCount: number | null = null;
  if (previous === undefined) ctx.notice(`mcp-registry: no snapshot for ${previousDate}; delta_1d is null`);
  else if (!previous.success) ctx.notice(`mcp-registry: the snapshot of ${previousDate} has no summary.count; delta_1d is null`);
  else previousCount = previous.data.summary.count;

  const count = servers.length;
  const delta = previousCount === null ? null : count - previousCount;
  const data = mcpRegistrySnapshot.parse({
    summary: {
      count,
      delta_1d: delta,
      previous_date: previousCount === null ? null : previousDate,
      previous_count: previousCount,
      by_transport: tally(servers, (s) => s.transports),
      by_registry_type: tally(servers, (s) => s.package_types),
      with_remotes: servers.filter((s) => s.remote).length,
      pages: listing.pages,
      entries_seen: listing.seen,
      complete: listing.complete,
    },
    servers,
  });
  return {
    data,
    rows: count,
    sources: [{ id: mcpRegistrySource.id, ok: true, rows: count }],
    warehouse: [mcpRegistryDailyRows(data, utcDate(ctx.now))],
  };
}

/** The MCP registry feed (API: GET /api/mcp/registry/snapshot). */
export const mcpRegistryFeed: Feed<McpRegistrySnapshot> = {
  ...mcpRegistrySnapshotType,
  urls: () => [MCP_REGISTRY_URL],
  historyRows: (data, at) => [mcpRegistryDailyRows(data, at.date)],
  run: (ctx) => runMcpRegistry(ctx),
};
