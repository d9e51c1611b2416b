import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { replayPathFor } from "../lib/replay-path.ts";
import { testSource } from "../lib/testing/contract.ts";
import { McpRegistryParseError, isCurrent, mcpRegistrySource, toRow } from "./mcp-registry.ts";

const BASE = "https://registry.modelcontextprotocol.io/v0/servers?limit=100";
const PAGES = [BASE, `${BASE}&cursor=${encodeURIComponent("io.github.lunaris/notes:2.0.0")}`, `${BASE}&cursor=${encodeURIComponent("com.pgpilot/postgres:3.1.4")}`];
const fixture = (url: string) => `pipelines/fixtures/${replayPathFor(url)}`;
const read = (url: string) => mcpRegistrySource.parse(readFileSync(fixture(url), "utf8"));
const NOW = new Date("2026-11-22T06:23:00Z");
const normalize = (url: string) => mcpRegistrySource.normalize(read(url), { url, now: NOW, meta: undefined });

testSource(mcpRegistrySource, PAGES.map((url) => ({ url, fixture: fixture(url), meta: undefined, now: NOW })));

describe("mcpRegistrySource", () => {
  it("parse() reads entries and the next cursor, null on the last page", () => {
    expect(read(PAGES[0]!).nextCursor).toBe("io.github.lunaris/notes:2.0.0");
    expect(read(PAGES[1]!).nextCursor).toBe("com.pgpilot/postgres:3.1.4");
    expect(read(PAGES[2]!).nextCursor).toBeNull();
    expect(read(PAGES[0]!).entries).toHaveLength(4);
  });

  it("normalize() keeps only the latest version of active servers", () => {
    expect(normalize(PAGES[0]!).map((r) => `${r.name}@${r.version}`)).toEqual([
      "ai.cartograph/maps@1.4.0",
      "io.github.bramvdl/sqlite-explorer@0.4.1",
      "io.github.lunaris/notes@2.0.0",
    ]);
    // Page 2 holds the latest git-insights, a deprecated and a deleted server.
    expect(normalize(PAGES[1]!).map((r) => `${r.name}@${r.version}`)).toEqual(["io.github.kestrel-dev/git-insights@1.3.0", "com.pgpilot/postgres@3.1.4"]);
  });

  it("normalize() maps transports, package types, remotes, repository and dates", () => {
    const [notes] = normalize(PAGES[0]!).filter((r) => r.name === "io.github.lunaris/notes");
    expect(notes).toEqual({
      name: "io.github.lunaris/notes",
      title: "Lunaris Notes",
      description: "Search and edit a folder of Markdown notes with backlinks and tags.",
      version: "2.0.0",
      repository_url: "https://github.com/lunaris/notes-mcp",
      transports: ["stdio"],
      package_types: ["oci", "pypi"],
      remote: false,
      published_at: "2025-11-03T07:45:09.913Z",
      updated_at: "2025-11-03T07:45:09.913Z",
    });
    const maps = normalize(PAGES[0]!).find((r) => r.name === "ai.cartograph/maps");
    expect(maps).toMatchObject({ transports: ["streamable-http"], package_types: [], remote: true });
    const git = normalize(PAGES[1]!).find((r) => r.name === "io.github.kestrel-dev/git-insights");
    expect(git).toMatchObject({ transports: ["sse", "stdio"], package_types: ["npm"], remote: true });
    const clock = normalize(PAGES[2]!).find((r) => r.name === "io.github.tinytools/clock");
    expect(clock).toMatchObject({ repository_url: null, package_types: ["mcpb", "nuget"], updated_at: "2025-11-19T04:22:48.905Z" });
    expect(clock).not.toHaveProperty("title");
  });

  it("normalize() keeps every server of a recorded page and nulls only its unusable dates", () => {
    const body = JSON.parse(readFileSync(fixture(PAGES[0]!), "utf8")) as { servers: { _meta?: Record<string, Record<string, unknown>> }[] };
    const before = normalize(PAGES[0]!);
    const official = (i: number) => Object.values(body.servers[i]!._meta!)[0]!;
    official(0)["publishedAt"] = "+010000-01-01T00:00:00Z";
    official(0)["updatedAt"] = "+010000-01-01T00:00:00Z";
    official(1)["updatedAt"] = "9999-12-31T23:59:59Z";
    const page = mcpRegistrySource.parse(JSON.stringify(body));
    const rows = mcpRegistrySource.normalize(page, { url: PAGES[0]!, now: NOW, meta: undefined });
    for (const row of rows) expect(() => mcpRegistrySource.row.parse(row)).not.toThrow();
    expect(rows.map((r) => r.name)).toEqual(before.map((r) => r.name));
    const changed = [page.entries[0]!.server.name, page.entries[1]!.server.name];
    expect(rows.find((r) => r.name === changed[0])).toMatchObject({ published_at: null, updated_at: null });
    const second = rows.find((r) => r.name === changed[1])!;
    expect(second.updated_at).toBe("2025-09-21T19:03:12.550Z");
    expect(second.updated_at).toBe(second.published_at);
    expect(rows.filter((r) => !changed.includes(r.name))).toEqual(before.filter((r) => !changed.includes(r.name)));
  });

  it("normalize() sanitizes descriptions: HTML stripped, injection filtered, clipped", () => {
    const pg = normalize(PAGES[1]!).find((r) => r.name === "com.pgpilot/postgres");
    expect(pg?.description).toBe("Query PostgreSQL with schema-aware SQL help. [filtered] and [filtered].");
    const long = toRow({ server: { name: "x/y", version: "1", description: "word ".repeat(200) } }, NOW);
    expect(long.description.length).toBeLessThanOrEqual(300);
    expect(long.description.endsWith("…")).toBe(true);
  });

  it("isCurrent() needs isLatest true and status active (camelCase or snake_case facts)", () => {
    const e = (o: Record<string, unknown> | undefined) => ({ server: { name: "a/b", version: "1" }, ...(o ? { _meta: { "io.modelcontextprotocol.registry/official": o } } : {}) });
    expect(isCurrent(e({ status: "active", isLatest: true }))).toBe(true);
    expect(isCurrent(e({ status: "active", is_latest: true }))).toBe(true);
    expect(isCurrent(e({ status: "active", isLatest: false }))).toBe(false);
    expect(isCurrent(e({ status: "deprecated", isLatest: true }))).toBe(false);
    expect(isCurrent(e({ status: "deleted", isLatest: true }))).toBe(false);
    expect(isCurrent(e(undefined))).toBe(false);
  });

  it("parse() skips unreadable entries, counting them, and rejects a body that is not a page", () => {
    const page = mcpRegistrySource.parse(JSON.stringify({ servers: [{ server: { name: "a/b", version: "1" } }, { server: { description: "no name" } }, 42], metadata: { count: 3 } }));
    expect(page.entries).toHaveLength(1);
    expect(page.invalid).toBe(2);
    expect(page.nextCursor).toBeNull();
    expect(() => mcpRegistrySource.parse("<html>")).toThrow(McpRegistryParseError);
    expect(() => mcpRegistrySource.parse('{"items":[]}')).toThrow(/not a \/v0\/servers page/);
  });

  it("toRow() drops a repository URL that is not http(s)", () => {
    expect(toRow({ server: { name: "a/b", version: "1", repository: { url: "git@github.com:a/b.git" } } }, NOW).repository_url).toBeNull();
    expect(toRow({ server: { name: "a/b", version: "1", repository: { url: "javascript:alert(1)" } } }, NOW).repository_url).toBeNull();
  });
});
