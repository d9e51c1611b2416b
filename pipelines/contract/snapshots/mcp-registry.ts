/** The `mcp-registry` snapshot: the official MCP registry's current servers (latest version of each active one) with a summary. */
import { z } from "zod";
import type { SnapshotType } from "../snapshot-type.ts";

/** Longest description kept (UTF-16 units, ellipsis included). */
export const DESCRIPTION_MAX = 300;

/** A transport or package registry type: a short lowercase token. */
export const mcpToken = z.string().regex(/^[a-z0-9][a-z0-9._+-]{0,39}$/);

/** One current server, as stored in the snapshot. */
export const mcpServerRow = z.strictObject({
  name: z.string().min(1).max(200),
  title: z.string().min(1).max(100).optional(),
  description: z.string().max(DESCRIPTION_MAX),
  version: z.string().min(1).max(100),
  repository_url: z.url({ protocol: /^https?$/ }).nullable(),
  /** Transport types of its packages and remotes (stdio, streamable-http, sse …), sorted. */
  transports: z.array(mcpToken),
  /** Package registry types (npm, pypi, oci, nuget, mcpb …), sorted; empty for a remote-only server. */
  package_types: z.array(mcpToken),
  /** Has at least one hosted remote endpoint. */
  remote: z.boolean(),
  published_at: z.iso.datetime().nullable(),
  updated_at: z.iso.datetime().nullable(),
});

export type McpServerRow = z.infer<typeof mcpServerRow>;

const counts = z.record(z.string(), z.number().int().nonnegative());

/** Strict snapshot body: summary, then servers sorted by name. */
export const mcpRegistrySnapshot = z.strictObject({
  summary: z.strictObject({
    /** Current servers: latest version of each active server, unique by name. */
    count: z.number().int().nonnegative(),
    /** count minus the previous UTC day's count; null without a snapshot of that day. */
    delta_1d: z.number().int().nullable(),
    /** The day delta_1d compares with (YYYY-MM-DD), null when it had no snapshot. */
    previous_date: z.iso.date().nullable(),
    previous_count: z.number().int().nonnegative().nullable(),
    /** Servers per transport type (a server counts once under each of its types). */
    by_transport: counts,
    /** Servers per package registry type (a server counts once under each of its types). */
    by_registry_type: counts,
    /** Servers with at least one hosted remote endpoint. */
    with_remotes: z.number().int().nonnegative(),
    /** Pages read and listing entries seen (every version and status). */
    pages: z.number().int().positive(),
    entries_seen: z.number().int().nonnegative(),
    /** False when paging stopped before the last page. */
    complete: z.boolean(),
  }),
  servers: z.array(mcpServerRow).refine(
    (s) => s.every((e, i) => i === 0 || s[i - 1]!.name < e.name),
    "servers must be sorted by name with unique names",
  ),
});

export type McpRegistrySnapshot = z.infer<typeof mcpRegistrySnapshot>;

/** The `mcp-registry` snapshot type. */
export const mcpRegistrySnapshotType = {
  type: "mcp-registry",
  title: "MCP registry snapshot",
  cron: "23 6 * * *",
  cadence: "daily at 06:23 UTC",
  slaSeconds: 2 * 86_400,
  schema: mcpRegistrySnapshot,
} satisfies SnapshotType<McpRegistrySnapshot>;
