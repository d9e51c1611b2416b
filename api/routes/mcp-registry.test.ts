import { describe, expect, it } from "vitest";
import type { LoadedSnapshot, RenderContext, SnapshotMeta, SnapshotReader } from "../registry/types.ts";
import { McpRegistryResponse, mcpRegistryRoutes, renderMcpRegistry } from "./mcp-registry.ts";
import type { McpRegistrySnapshot } from "../../pipelines/contract/snapshots/mcp-registry.ts";

const LAST_SUCCESS = "2026-11-22T06:23:41.907Z";
const data: McpRegistrySnapshot = {
  summary: {
    count: 2, delta_1d: 1, previous_date: "2026-11-21", previous_count: 1,
    by_transport: { stdio: 1, "streamable-http": 1 }, by_registry_type: { npm: 1 }, with_remotes: 1, pages: 1, entries_seen: 3, complete: true,
  },
  servers: [
    { name: "ai.cartograph/maps", title: "Cartograph Maps", description: "Geocoding and routing.", version: "1.4.0", repository_url: "https://github.com/cartograph-ai/maps-mcp", transports: ["streamable-http"], package_types: [], remote: true, published_at: "2025-10-02T08:14:51.402Z", updated_at: "2025-11-18T16:40:03.118Z" },
    { name: "io.github.bramvdl/sqlite-explorer", description: "Read-only SQLite queries.", version: "0.4.1", repository_url: null, transports: ["stdio"], package_types: ["npm"], remote: false, published_at: null, updated_at: null },
  ],
};

function meta(over: Partial<SnapshotMeta> = {}): SnapshotMeta {
  return { type: "mcp-registry", date: "2026-11-22", lastSuccess: LAST_SUCCESS, lastAttempt: LAST_SUCCESS, lastChanged: LAST_SUCCESS, lastError: null, rows: 2, provenance: "replay", slaSeconds: 172_800, cadence: "daily at 06:23 UTC", sources: [], ...over };
}

function ctx(snapshot: LoadedSnapshot<unknown> | undefined): RenderContext {
  const reader: SnapshotReader = {
    get: <T,>(type: string) => (type === "mcp-registry" ? (snapshot as LoadedSnapshot<T> | undefined) : undefined),
    types: () => (snapshot ? ["mcp-registry"] : []),
    dates: () => [],
    dated: async () => undefined,
  };
  return { snapshots: reader, baseUrl: "http://localhost:3000", now: new Date("2026-11-22T07:00:00Z") };
}

describe("mcp registry route", () => {
  it("renderMcpRegistry() returns the summary, the servers and the last successful run", () => {
    const body = McpRegistryResponse.parse(renderMcpRegistry(ctx({ type: "mcp-registry", data, meta: meta() })));
    expect(body.ok).toBe(true);
    expect(body.summary).toEqual(data.summary);
    expect(body.summary.count).toBe(2);
    expect(body.summary.delta_1d).toBe(1);
    expect(body.snapshot).toEqual({ date: "2026-11-22", provenance: "replay", servers: data.servers });
    expect(body.updated).toBe(LAST_SUCCESS);
  });

  it("renderMcpRegistry() answers 503 snapshot_unavailable when the snapshot is missing or malformed", () => {
    expect(() => renderMcpRegistry(ctx(undefined))).toThrow(expect.objectContaining({ status: 503, code: "snapshot_unavailable" }));
    expect(() => renderMcpRegistry(ctx({ type: "mcp-registry", data: { servers: [] }, meta: meta() }))).toThrow(/does not match its schema/);
  });

  it("mcpRegistryRoutes declare the path, the snapshot and the daily freshness", () => {
    expect(mcpRegistryRoutes).toHaveLength(1);
    const r = mcpRegistryRoutes[0]!;
    expect(r).toMatchObject({ method: "GET", path: "/api/mcp/registry/snapshot", tier: "free", snapshots: ["mcp-registry"], freshness: { cadence: "daily at 06:23 UTC", slaSeconds: 172_800 } });
    expect(r.description).toMatch(/delta_1d/);
  });
});
