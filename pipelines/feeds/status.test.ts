import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { statusProviders } from "../catalog/status-providers.ts";
import type { ClosableHttpClient } from "../lib/http/client.ts";
import { replayPathFor } from "../lib/replay-path.ts";
import { sourceHealthOf, type FeedContext } from "../lib/types.ts";
import { runStatus, statusFeed, statusSnapshot } from "./status.ts";
import { testFeedContext } from "../lib/testing/feed-context.ts";
import { replayFixtures } from "../lib/testing/replay-fixtures.ts";

const NOW = new Date("2026-11-22T10:00:00Z");
const fixtures = replayFixtures();
const client = fixtures.client;

function context(http: ClosableHttpClient, notices: string[] = []): FeedContext {
  const ctx = testFeedContext({ http, now: NOW });
  return { ...ctx, notice: (m) => notices.push(m) };
}

/** A temp replay dir holding the status fixtures, minus or plus what a test needs. */
function tempReplay(change: (dir: string) => void): string {
  const dir = fixtures.tempDir("status-feed-");
  for (const p of statusProviders) {
    const rel = replayPathFor(p.endpoint);
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    cpSync(join("pipelines/fixtures", rel), join(dir, rel));
  }
  change(dir);
  return dir;
}

describe("statusFeed", () => {
  it("statusFeed declares type, cadence, SLA and every catalog URL", () => {
    expect(statusFeed.type).toBe("status");
    expect(statusFeed.cron).toBe("*/2 * * * *");
    expect(statusFeed.slaSeconds).toBe(600);
    expect(statusFeed.urls()).toEqual(statusProviders.map((p) => p.endpoint));
    expect(statusProviders.length).toBeGreaterThanOrEqual(12);
  });

  it("run() builds a sorted, schema-valid snapshot from the recorded pages", async () => {
    const out = await statusFeed.run(context(client("pipelines/fixtures")));
    expect(() => statusSnapshot.parse(out.data)).not.toThrow();
    const ids = out.data.services.map((s) => s.provider);
    expect(ids).toEqual([...statusProviders.map((p) => p.provider)].sort());
    expect(out.rows).toBe(statusProviders.length);
    expect(out.sources?.every((s) => s.ok)).toBe(true);
    const by = Object.fromEntries(out.data.services.map((s) => [s.provider, s]));
    expect(by["openai"]?.status).toBe("operational");
    expect(by["anthropic"]?.status).toBe("degraded");
    expect(by["groq"]?.status).toBe("down");
    expect(by["cerebras"]?.status).toBe("degraded");
    expect(by["google"]?.status).toBe("degraded");
    expect(by["together"]?.status).toBe("degraded");
    expect(by["xai"]?.status).toBe("operational");
    expect(by["azure-openai"]?.components).toEqual([{ name: "Azure OpenAI", status: "operational" }]);
    expect(by["replicate"]?.components.map((c) => c.name)).not.toContain("Inference and Training");
    expect(by["perplexity"]?.components.find((c) => c.name === "Computer")?.status).toBe("unknown");
  });

  it("run() writes one status_samples row per provider keyed by ts and provider", async () => {
    const out = await statusFeed.run(context(client("pipelines/fixtures")));
    const batch = out.warehouse?.find((b) => b.table === "status_samples");
    expect(batch?.key).toEqual(["ts", "provider"]);
    expect(batch?.rows).toHaveLength(statusProviders.length);
    const groq = batch?.rows.find((r) => r["provider"] === "groq");
    expect(groq).toEqual({
      ts: "2026-11-22T10:00:00.000Z",
      date: "2026-11-22",
      provider: "groq",
      status: "down",
      components_total: 4,
      components_degraded: 1,
      components_down: 1,
    });
  });

  it("run() reports a provider whose fixture is missing as unknown and records the error", async () => {
    const missing = statusProviders.find((p) => p.provider === "cohere")!;
    const dir = tempReplay((d) => rmSync(join(d, replayPathFor(missing.endpoint))));
    const notices: string[] = [];
    const out = await statusFeed.run(context(client(dir), notices));
    const cohere = out.data.services.find((s) => s.provider === "cohere");
    expect(cohere).toEqual({ name: "Cohere", provider: "cohere", status: "unknown", statusPageUrl: "https://status.cohere.com", components: [] });
    const health = out.sources?.find((s) => s.id === "cohere");
    expect(health?.ok).toBe(false);
    expect(health?.error).toMatch(/status\.cohere\.com/);
    expect(out.sources?.filter((s) => !s.ok)).toHaveLength(1);
    expect(notices.some((n) => n.includes("cohere"))).toBe(true);
    expect(out.warehouse?.[0]?.rows.find((r) => r["provider"] === "cohere")?.["status"]).toBe("unknown");
  });

  it("run() keeps a Statuspage provider with one unreadable component and notices the skip", async () => {
    const anthropic = statusProviders.find((p) => p.provider === "anthropic")!;
    expect(anthropic.format).toBe("statuspage");
    const dir = tempReplay((d) => {
      const file = join(d, replayPathFor(anthropic.endpoint));
      const body = JSON.parse(readFileSync(file, "utf8")) as { components: Record<string, unknown>[] };
      body.components[1]!["name"] = null;
      writeFileSync(file, JSON.stringify(body));
    });
    const notices: string[] = [];
    const out = await statusFeed.run(context(client(dir), notices));
    const entry = out.data.services.find((s) => s.provider === "anthropic")!;
    expect(entry.status).not.toBe("unknown");
    expect(entry.components.length).toBeGreaterThan(0);
    expect(out.sources?.find((s) => s.id === "anthropic")?.ok).toBe(true);
    expect(notices).toContain("status: anthropic had 1 unreadable components (skipped)");
  });

  it("run() reports a provider answering 500 as unknown", async () => {
    const failing = statusProviders.find((p) => p.provider === "together")!;
    const dir = tempReplay((d) =>
      writeFileSync(join(d, `${replayPathFor(failing.endpoint)}.meta.json`), JSON.stringify({ status: 500, headers: { "content-type": "text/html" } })),
    );
    const out = await statusFeed.run(context(client(dir)));
    expect(out.data.services.find((s) => s.provider === "together")?.status).toBe("unknown");
    expect(out.sources?.find((s) => s.id === "together")).toMatchObject({ ok: false });
    expect(out.data.services.find((s) => s.provider === "openai")?.status).toBe("operational");
  });

  it("run() reports a provider whose body does not parse as unknown", async () => {
    const broken = statusProviders.find((p) => p.provider === "openai")!;
    const dir = tempReplay((d) => writeFileSync(join(d, replayPathFor(broken.endpoint)), "<html>maintenance</html>"));
    const out = await statusFeed.run(context(client(dir)));
    expect(out.data.services.find((s) => s.provider === "openai")?.status).toBe("unknown");
    expect(out.sources?.find((s) => s.id === "openai")?.error).toBeTruthy();
  });

  it("runStatus() fails only when every provider fails", async () => {
    const empty = fixtures.tempDir("status-empty-");
    const failure = await runStatus(context(client(empty))).then(() => null, (e: unknown) => e);
    expect(String(failure)).toMatch(/all \d+ providers failed/);
    // Each provider's failure goes with it, for the manifest (sourceHealthOf in the runner).
    const sources = sourceHealthOf(failure)!;
    expect(sources.map((s) => s.id).sort()).toEqual(statusProviders.map((p) => p.provider).sort());
    expect(sources.every((s) => !s.ok && typeof s.error === "string")).toBe(true);
  });
});
