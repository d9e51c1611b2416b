/**
 * The official MCP registry, `GET https://registry.modelcontextprotocol.io/v0/servers?limit=100&cursor=…`
 * (docs: https://registry.modelcontextprotocol.io/docs, public, no key). One page lists server versions:
 * `servers[].server` is the publisher's server.json (name, title, description, version, repository,
 * packages[], remotes[]) and `servers[]._meta["io.modelcontextprotocol.registry/official"]` the registry's
 * own facts (status active | deprecated | deleted, publishedAt, updatedAt, isLatest); `metadata.nextCursor`
 * names the next page and is absent on the last. No documented rate limit; we page through it once a day.
 *
 * `parse` reads one page and keeps each entry that has a name and a version (others are counted as
 * invalid); `normalize` keeps the latest version of each active server (isLatest true, status active) and
 * maps it to a strict row. Free text (name, title, description, version) goes through the sanitizer.
 */
import { z } from "zod";
import { sanitize } from "../lib/sanitize.ts";
import { pastTime } from "../lib/time.ts";
import type { NormalizeContext, Source } from "../lib/types.ts";
import { DESCRIPTION_MAX, mcpServerRow, type McpServerRow, mcpToken } from "../contract/snapshots/mcp-registry.ts";

export { DESCRIPTION_MAX, mcpServerRow, type McpServerRow } from "../contract/snapshots/mcp-registry.ts";

/** The `_meta` key the registry writes its own facts under. */
export const OFFICIAL_META = "io.modelcontextprotocol.registry/official";

const official = z.looseObject({
  status: z.string().nullish(),
  publishedAt: z.string().nullish(),
  updatedAt: z.string().nullish(),
  isLatest: z.boolean().nullish(),
  // Spellings of the registry's first v0 releases.
  published_at: z.string().nullish(),
  updated_at: z.string().nullish(),
  is_latest: z.boolean().nullish(),
});

const serverJson = z.looseObject({
  name: z.string().min(1),
  title: z.string().nullish(),
  description: z.string().nullish(),
  version: z.string().min(1),
  repository: z.looseObject({ url: z.string().nullish(), source: z.string().nullish() }).nullish(),
  packages: z
    .array(
      z.looseObject({
        registryType: z.string().nullish(),
        registry_type: z.string().nullish(),
        transport: z.looseObject({ type: z.string().nullish() }).nullish(),
      }),
    )
    .nullish(),
  remotes: z.array(z.looseObject({ type: z.string().nullish() })).nullish(),
});

const entrySchema = z.looseObject({
  server: serverJson,
  _meta: z.looseObject({ [OFFICIAL_META]: official.nullish() }).nullish(),
});

const pageSchema = z.looseObject({
  servers: z.array(z.unknown()),
  metadata: z.looseObject({ count: z.number().nullish(), nextCursor: z.string().nullish() }).nullish(),
});

/** One server version as listed. */
export type McpRegistryEntry = z.infer<typeof entrySchema>;

/** One page: the entries we could read, how many we could not, and the next cursor (null on the last page). */
export interface McpRegistryPage {
  entries: McpRegistryEntry[];
  invalid: number;
  nextCursor: string | null;
}

/** The body is not a registry page. */
export class McpRegistryParseError extends Error {
  override name = "McpRegistryParseError";
}

/** The registry's facts about an entry (camelCase or the early snake_case spellings). */
export function officialMeta(entry: McpRegistryEntry): { status: string | null; isLatest: boolean | null; publishedAt: string | null; updatedAt: string | null } {
  const o = entry._meta?.[OFFICIAL_META];
  return {
    status: o?.status ?? null,
    isLatest: o?.isLatest ?? o?.is_latest ?? null,
    publishedAt: o?.publishedAt ?? o?.published_at ?? null,
    updatedAt: o?.updatedAt ?? o?.updated_at ?? null,
  };
}

/** True for the latest version of an active server; entries without the registry's facts are not counted. */
export function isCurrent(entry: McpRegistryEntry): boolean {
  const m = officialMeta(entry);
  return m.isLatest === true && m.status === "active";
}


function httpUrlOrNull(value: string | null | undefined): string | null {
  if (!value) return null;
  try {
    const u = new URL(value.trim());
    return u.protocol === "https:" || u.protocol === "http:" ? u.toString() : null;
  } catch {
    return null;
  }
}

function tokens(values: (string | null | undefined)[]): string[] {
  const out = new Set<string>();
  for (const v of values) {
    const t = (v ?? "").trim().toLowerCase();
    if (mcpToken.safeParse(t).success) out.add(t);
  }
  return [...out].sort();
}

/**
 * Map one entry listed at `now` to a row (whatever its status; the caller filters with isCurrent). `published_at`
 * and `updated_at` are null when unreadable, before 1990 or more than a day after `now`; a missing or unusable
 * update time falls back on the publication time (the entry was last changed no earlier than that).
 */
export function toRow(entry: McpRegistryEntry, now: Date): McpServerRow {
  const s = entry.server;
  const meta = officialMeta(entry);
  const title = s.title ? sanitize(s.title, { maxLength: 100 }) : "";
  const packages = s.packages ?? [];
  const remotes = s.remotes ?? [];
  return {
    name: sanitize(s.name, { maxLength: 200 }) || s.name.slice(0, 200),
    ...(title ? { title } : {}),
    description: sanitize(s.description ?? "", { maxLength: DESCRIPTION_MAX }),
    version: sanitize(s.version, { maxLength: 100 }) || "unknown",
    repository_url: httpUrlOrNull(s.repository?.url),
    transports: tokens([...packages.map((p) => p.transport?.type), ...remotes.map((r) => r.type)]),
    package_types: tokens(packages.map((p) => p.registryType ?? p.registry_type)),
    remote: remotes.length > 0,
    published_at: pastTime(meta.publishedAt, now),
    updated_at: pastTime(meta.updatedAt, now) ?? pastTime(meta.publishedAt, now),
  };
}

/** The MCP registry list endpoint → current servers. */
export const mcpRegistrySource = {
  id: "mcp-registry",
  description: "Official MCP registry GET /v0/servers (cursor-paginated, public, no key); paged through daily",
  parse(body: string): McpRegistryPage {
    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch (error) {
      throw new McpRegistryParseError(`mcp-registry: body is not JSON; it starts ${JSON.stringify(body.slice(0, 80))}`, { cause: error });
    }
    const page = pageSchema.safeParse(json);
    if (!page.success) {
      throw new McpRegistryParseError(`mcp-registry: not a /v0/servers page: ${z.prettifyError(page.error)}`, { cause: page.error });
    }
    const entries: McpRegistryEntry[] = [];
    let invalid = 0;
    for (const raw of page.data.servers) {
      const e = entrySchema.safeParse(raw);
      if (e.success) entries.push(e.data);
      else invalid += 1;
    }
    const next = page.data.metadata?.nextCursor;
    return { entries, invalid, nextCursor: next ? next : null };
  },
  normalize(parsed: McpRegistryPage, ctx: NormalizeContext & { meta: undefined }): McpServerRow[] {
    return parsed.entries.filter(isCurrent).map((entry) => toRow(entry, ctx.now));
  },
  row: mcpServerRow,
} satisfies Source<McpRegistryPage, McpServerRow>;
