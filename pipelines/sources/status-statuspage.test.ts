import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { testSource } from "../lib/testing/contract.ts";
import type { StatusMeta } from "./status-common.ts";
import { mapStatuspageComponent, mapStatuspageIndicator, statuspageSource } from "./status-statuspage.ts";

const F = "pipelines/fixtures";
const meta = (provider: string, extra: Partial<StatusMeta> = {}): StatusMeta => ({
  provider,
  name: provider.toUpperCase(),
  statusPageUrl: `https://status.example.com/${provider}`,
  ...extra,
});
const run = (file: string, m: StatusMeta) =>
  statuspageSource.normalize(statuspageSource.parse(readFileSync(`${F}/${file}`, "utf8")), {
    url: "https://x.test/api/v2/summary.json",
    now: new Date("2026-11-22T10:00:00Z"),
    meta: m,
  })[0]!;

testSource(statuspageSource, [
  { fixture: `${F}/status.openai.com/api/v2/summary.json`, url: "https://status.openai.com/api/v2/summary.json", meta: meta("openai") },
  { fixture: `${F}/status.claude.com/api/v2/summary.json`, url: "https://status.claude.com/api/v2/summary.json", meta: meta("anthropic") },
  { fixture: `${F}/groqstatus.com/api/v2/summary.json`, url: "https://groqstatus.com/api/v2/summary.json", meta: meta("groq") },
  { fixture: `${F}/www.replicatestatus.com/api/v2/summary.json`, url: "https://www.replicatestatus.com/api/v2/summary.json", meta: meta("replicate") },
  { fixture: `${F}/status.perplexity.com/api/v2/summary.json`, url: "https://status.perplexity.com/api/v2/summary.json", meta: meta("perplexity") },
  { fixture: `${F}/status.cerebras.ai/api/v2/summary.json`, url: "https://status.cerebras.ai/api/v2/summary.json", meta: meta("cerebras") },
  { fixture: `${F}/status.cohere.com/api/v2/summary.json`, url: "https://status.cohere.com/api/v2/summary.json", meta: meta("cohere") },
]);

describe("statuspage source", () => {
  it("mapStatuspageComponent() maps every documented value and unknown ones to unknown", () => {
    expect(mapStatuspageComponent("operational")).toBe("operational");
    expect(mapStatuspageComponent("degraded_performance")).toBe("degraded");
    expect(mapStatuspageComponent("partial_outage")).toBe("degraded");
    expect(mapStatuspageComponent("under_maintenance")).toBe("degraded");
    expect(mapStatuspageComponent("major_outage")).toBe("down");
    expect(mapStatuspageComponent("full_outage")).toBe("unknown");
  });

  it("mapStatuspageIndicator() maps none/minor/major/maintenance/critical", () => {
    expect(mapStatuspageIndicator("none")).toBe("operational");
    expect(mapStatuspageIndicator("minor")).toBe("degraded");
    expect(mapStatuspageIndicator("major")).toBe("degraded");
    expect(mapStatuspageIndicator("maintenance")).toBe("degraded");
    expect(mapStatuspageIndicator("critical")).toBe("down");
    expect(mapStatuspageIndicator("purple")).toBe("unknown");
  });

  it("normalize() reports an all-operational page as operational with every component", () => {
    const e = run("status.openai.com/api/v2/summary.json", meta("openai"));
    expect(e.status).toBe("operational");
    expect(e.components.length).toBe(16);
    expect(e.components.every((c) => c.status === "operational")).toBe(true);
  });

  it("normalize() reports partial outage as degraded and keeps component order", () => {
    const e = run("status.claude.com/api/v2/summary.json", meta("anthropic"));
    expect(e.status).toBe("degraded");
    expect(e.components.map((c) => c.name)).toEqual([
      "claude.ai",
      "platform.claude.com",
      "Claude API (api.anthropic.com)",
      "Claude Code",
      "Claude for Government",
    ]);
    expect(e.components[2]!.status).toBe("degraded");
  });

  it("normalize() reports a major outage as down", () => {
    const e = run("groqstatus.com/api/v2/summary.json", meta("groq"));
    expect(e.status).toBe("down");
    expect(e.components.find((c) => c.name === "API")?.status).toBe("down");
  });

  it("normalize() skips group containers and keeps their children", () => {
    const e = run("www.replicatestatus.com/api/v2/summary.json", meta("replicate"));
    const names = e.components.map((c) => c.name);
    expect(names).not.toContain("API");
    expect(names).not.toContain("Inference and Training");
    expect(names).toEqual(["HTTP API", "Streaming API", "H100 Hardware", "A100 Hardware", "L40S Hardware", "CPU Hardware", "Replicate Registry (r8.im)", "Home Page"]);
    expect(e.status).toBe("degraded");
  });

  it("normalize() maps under_maintenance to degraded", () => {
    const e = run("status.cerebras.ai/api/v2/summary.json", meta("cerebras"));
    expect(e.status).toBe("degraded");
    expect(e.components.find((c) => c.name === "qwen-3-235b-a22b-instruct")?.status).toBe("degraded");
  });

  it("normalize() keeps an unknown component value as unknown without overriding the page indicator", () => {
    const e = run("status.perplexity.com/api/v2/summary.json", meta("perplexity"));
    expect(e.components.find((c) => c.name === "Computer")?.status).toBe("unknown");
    expect(e.status).toBe("operational");
  });

  it("normalize() with a component filter keeps only those and ignores the page indicator", () => {
    const e = run("status.claude.com/api/v2/summary.json", meta("anthropic", { components: ["claude.ai"] }));
    expect(e.components).toEqual([{ name: "claude.ai", status: "operational" }]);
    expect(e.status).toBe("operational");
  });

  it("normalize() cleans control characters out of component names", () => {
    const body = JSON.stringify({
      page: { id: "p" },
      components: [{ name: "  Chat\u0000 API\n ", status: "operational" }],
      status: { indicator: "none" },
    });
    const e = statuspageSource.normalize(statuspageSource.parse(body), { url: "u", now: new Date(), meta: meta("x") })[0]!;
    expect(e.components[0]!.name).toBe("Chat API");
  });

  it("parse() skips one unreadable component alone, counts it and keeps the page", () => {
    const recorded = JSON.parse(readFileSync(`${F}/status.claude.com/api/v2/summary.json`, "utf8")) as { components: Record<string, unknown>[] };
    const all = run("status.claude.com/api/v2/summary.json", meta("anthropic"));
    const badName = String(recorded.components[1]!["name"]);
    recorded.components[1]!["name"] = null;
    const parsed = statuspageSource.parse(JSON.stringify(recorded));
    expect(parsed.skipped).toBe(1);
    const e = statuspageSource.normalize(parsed, { url: "u", now: new Date("2026-11-22T10:00:00Z"), meta: meta("anthropic") })[0]!;
    expect(e.components.map((c) => c.name)).toEqual(all.components.map((c) => c.name).filter((n) => n !== badName));
    expect(e.status).toBe(all.status);
  });

  it("parse() rejects a body that is not a summary", () => {
    expect(() => statuspageSource.parse("<html>")).toThrow(/not JSON/);
    expect(() => statuspageSource.parse(JSON.stringify({ page: {} }))).toThrow(/components/);
  });
});
