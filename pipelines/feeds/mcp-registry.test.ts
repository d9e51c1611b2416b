import { cpSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { ClosableHttpClient } from "../lib/http/client.ts";
import { replayPathFor } from "../lib/replay-path.ts";
import { testFeedContext } from "../lib/testing/feed-context.ts";
import { replayFixtures } from "../lib/testing/replay-fixtures.ts";
import type { McpServerRow } from "../sources/mcp-registry.ts";
import { MCP_REGISTRY_URL, dedupeByName, mcpRegistryFeed, mcpRegistrySnapshot, pageUrl, previousUtcDay, runMcpRegistry } from "./mcp-registry.ts";

const NOW = new Date("2026-11-22T06:23:00Z");
const fixtures = replayFixtures();
const client = (replayDir = "pipelines/fixtures"): ClosableHttpClient => fixtures.client(replayDir);

/** A temp replay dir with the registry fixtures, changed as a test needs. */
function tempReplay(change: (dir: string) => void): string {
  const dir = fixtures.tempDir("mcp-feed-");
  cpSync("pipelines/fixtures/registry.modelcontextprotocol.io", join(dir, "registry.modelcontextprotocol.io"), { recursive: true });
  change(dir);
  return dir;
}

const CURRENT = [
  "ai.cartograph/maps",
  "com.pgpilot/postgres",
  "io.github.bramvdl/sqlite-explorer",
  "io.github.kestrel-dev/git-insights",
  "io.github.lunaris/notes",
  "io.github.tinytools/clock",
];

describe("mcpRegistryFeed", () => {
  it("mcpRegistryFeed declares its type, daily cron, 2-day SLA and first page", () => {
    expect(mcpRegistryFeed.type).toBe("mcp-registry");
    expect(mcpRegistryFeed.cron).toBe("23 6 * * *");
    expect(mcpRegistryFeed.slaSeconds).toBe(172_800);
    expect(mcpRegistryFeed.urls()).toEqual([MCP_REGISTRY_URL]);
  });

  it("pageUrl() appends the encoded cursor to the first page's URL", () => {
    expect(pageUrl()).toBe("https://registry.modelcontextprotocol.io/v0/servers?limit=100");
    expect(pageUrl("com.pgpilot/postgres:3.1.4")).toBe("https://registry.modelcontextprotocol.io/v0/servers?limit=100&cursor=com.pgpilot%2Fpostgres%3A3.1.4");
    expect(replayPathFor(pageUrl("com.pgpilot/postgres:3.1.4"))).toBe("registry.modelcontextprotocol.io/v0/servers@limit=100&cursor=com.pgpilot%2Fpostgres%3A3.1.4");
  });

  it("run() pages through every cursor and counts latest active servers once", async () => {
    const ctx = testFeedContext({ http: client(), now: NOW, dated: { "mcp-registry": { "2026-11-21": { summary: { count: 4 }, servers: [] } } } });
    const out = await mcpRegistryFeed.run(ctx);
    expect(() => mcpRegistrySnapshot.parse(out.data)).not.toThrow();
    expect(out.data.servers.map((s) => s.name)).toEqual(CURRENT);
    expect(out.data.servers.find((s) => s.name === "io.github.kestrel-dev/git-insights")?.version).toBe("1.3.0");
    expect(out.data.summary).toEqual({
      count: 6,
      delta_1d: 2,
      previous_date: "2026-11-21",
      previous_count: 4,
      by_transport: { "streamable-http": 2, stdio: 4, sse: 1 },
      by_registry_type: { npm: 2, pypi: 2, oci: 1, mcpb: 1, nuget: 1 },
      with_remotes: 2,
      pages: 3,
      entries_seen: 10,
      complete: true,
    });
    expect(out.rows).toBe(6);
    expect(out.warehouse).toEqual([{ table: "mcp_registry_daily", key: ["date"], rows: [{ date: "2026-11-22", count: 6, delta_1d: 2 }] }]);
    expect(ctx.notices).toEqual([]);
  });

  it("run() leaves delta_1d null and says so when the previous day has no snapshot", async () => {
    const ctx = testFeedContext({ http: client(), now: NOW, dated: { "mcp-registry": { "2026-11-20": { summary: { count: 1 } } } } });
    const out = await runMcpRegistry(ctx);
    expect(out.data.summary).toMatchObject({ count: 6, delta_1d: null, previous_date: null, previous_count: null });
    expect(out.warehouse?.[0]?.rows[0]).toEqual({ date: "2026-11-22", count: 6, delta_1d: null });
    expect(ctx.notices).toEqual(["mcp-registry: no snapshot for 2026-11-21; delta_1d is null"]);
  });

  it("run() stops at the page cap, marks the summary incomplete and notes it", async () => {
    const ctx = testFeedContext({ http: client(), now: NOW });
    const out = await runMcpRegistry(ctx, { maxPages: 2 });
    expect(out.data.summary).toMatchObject({ pages: 2, complete: false, count: 5 });
    expect(ctx.notices.some((n) => n.includes("stopped after 2 pages"))).toBe(true);
  });

  it("run() stops when a cursor repeats", async () => {
    const dir = tempReplay((d) => {
      const last = join(d, replayPathFor(pageUrl("com.pgpilot/postgres:3.1.4")));
      writeFileSync(last, JSON.stringify({ servers: [], metadata: { count: 0, nextCursor: "io.github.lunaris/notes:2.0.0" } }));
    });
    const ctx = testFeedContext({ http: client(dir), now: NOW });
    const out = await runMcpRegistry(ctx);
    expect(out.data.summary).toMatchObject({ pages: 3, complete: false, count: 5 });
    expect(ctx.notices.some((n) => n.includes("came back twice"))).toBe(true);
  });

  it("run() fails when a page is missing, rather than writing a partial count", async () => {
    const page2 = replayPathFor(pageUrl("io.github.lunaris/notes:2.0.0"));
    const dir = tempReplay((d) => {
      rmSync(join(d, page2));
      rmSync(join(d, `${page2}.meta.json`));
    });
    const ctx = testFeedContext({ http: client(dir), now: NOW });
    await expect(runMcpRegistry(ctx)).rejects.toThrow(/cursor=io\.github\.lunaris/);
  });

  it("run() fails naming the page whose body is not a listing", async () => {
    const dir = tempReplay((d) => writeFileSync(join(d, replayPathFor(pageUrl("com.pgpilot/postgres:3.1.4"))), '{"error":"cursor expired"}'));
    await expect(runMcpRegistry(testFeedContext({ http: client(dir), now: NOW }))).rejects.toThrow(/page .*cursor=com\.pgpilot.*not a \/v0\/servers page/s);
  });

  it("run() fails when the listing holds no current server", async () => {
    const dir = tempReplay((d) => writeFileSync(join(d, replayPathFor(MCP_REGISTRY_URL)), JSON.stringify({ servers: [], metadata: { count: 0 } })));
    await expect(runMcpRegistry(testFeedContext({ http: client(dir), now: NOW }))).rejects.toThrow(/no latest version of an active server/);
  });

  it("dedupeByName() keeps the most recently updated copy and sorts by name", () => {
    const row = (name: string, version: string, updated_at: string | null): McpServerRow => ({
      name, description: "", version, repository_url: null, transports: [], package_types: [], remote: false, published_at: null, updated_at,
    });
    const out = dedupeByName([row("b/x", "1", "2025-01-01T00:00:00.000Z"), row("a/y", "1", null), row("b/x", "2", "2025-02-01T00:00:00.000Z"), row("b/x", "3", "2025-01-15T00:00:00.000Z")]);
    expect(out.map((r) => `${r.name}@${r.version}`)).toEqual(["a/y@1", "b/x@2"]);
  });

  it("previousUtcDay() is the UTC day before, across month ends", () => {
    expect(previousUtcDay(new Date("2026-12-01T00:30:00Z"))).toBe("2026-11-30");
    expect(previousUtcDay(new Date("2026-11-22T23:59:59Z"))).toBe("2026-11-21");
  });
});
