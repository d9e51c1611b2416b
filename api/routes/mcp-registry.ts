/**
 * GET /api/mcp/registry/snapshot: the official MCP registry as of the last daily `mcp-registry` pipeline run
 * — the spec's summary (current count, 1-day delta) plus the servers themselves. A pure render over the
 * snapshot; `updated` is the manifest's lastSuccess (snapshot bodies carry no run timestamps).
 */
import { z } from "zod";
import { defineRoute } from "../registry/define.ts";
import type { RenderContext } from "../registry/types.ts";
import { readSnapshot } from "../serve/read-snapshot.ts";
import { mcpRegistrySnapshot, mcpRegistrySnapshotType, mcpServerRow } from "../../pipelines/contract/snapshots/mcp-registry.ts";

/** Body of GET /api/mcp/registry/snapshot. */
export const McpRegistryResponse = z.strictObject({
  ok: z.literal(true),
  summary: mcpRegistrySnapshot.shape.summary,
  snapshot: z.strictObject({
    date: z.iso.date().meta({ description: "UTC day of the snapshot (its dated file under /api/history)" }),
    provenance: z.enum(["live", "replay"]).meta({ description: "replay when built from recorded fixtures" }),
    servers: z.array(mcpServerRow).meta({ description: "Latest version of each active server, sorted by name" }),
  }),
  updated: z.iso.datetime().nullable().meta({ description: "Last successful pipeline run (manifest lastSuccess)" }),
});
export type McpRegistryBody = z.infer<typeof McpRegistryResponse>;

/** Render GET /api/mcp/registry/snapshot. */
export function renderMcpRegistry(ctx: RenderContext): McpRegistryBody {
  const snapshot = readSnapshot(ctx.snapshots, "mcp-registry", mcpRegistrySnapshot);
  return {
    ok: true,
    summary: snapshot.data.summary,
    snapshot: { date: snapshot.meta.date, provenance: snapshot.meta.provenance, servers: snapshot.data.servers },
    updated: snapshot.meta.lastSuccess,
  };
}

/** /api/mcp/registry/snapshot. */
export const mcpRegistryRoutes = [
  defineRoute({
    method: "GET",
    path: "/api/mcp/registry/snapshot",
    tier: "free",
    summary: "Daily snapshot of the official MCP server registry: current count, 1-day delta and the servers.",
    description:
      "Built daily from registry.modelcontextprotocol.io GET /v0/servers, paged with metadata.nextCursor. Counted: the latest version (isLatest) of each active server, unique by name; deprecated and deleted servers and older versions are not. summary.delta_1d = count minus the count in the previous UTC day's snapshot, null (with previous_date null) when that day has no snapshot. summary also breaks the servers down by transport (stdio, streamable-http, sse …) and package registry type (npm, pypi, oci, nuget, mcpb …); a server counts once under each of its types. complete is false when paging stopped early (page cap or a repeating cursor), making count a lower bound. snapshot.servers lists every counted server (name, title when given, description sanitized and clipped to 300 characters, version, repository_url, transports, package_types, remote, published_at, updated_at), sorted by name. updated is the last successful pipeline run.",
    tags: ["mcp"],
    response: McpRegistryResponse,
    snapshots: ["mcp-registry"],
    freshness: { cadence: mcpRegistrySnapshotType.cadence, slaSeconds: mcpRegistrySnapshotType.slaSeconds },
    render: (ctx) => renderMcpRegistry(ctx),
  }),
];
