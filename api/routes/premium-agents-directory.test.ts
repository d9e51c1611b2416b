import { describe, expect, it } from "vitest";
import { serverActivity } from "../activity/tracker.ts";
import { useBundledSnapshots } from "../testing/bundled-context.ts";
import { PremiumAgentsDirectoryQuery, PremiumAgentsDirectoryResponse, premiumAgentsDirectoryRoutes, renderPremiumAgentsDirectory } from "./premium-agents-directory.ts";

const now = new Date("2026-11-22T12:00:00Z");
const { ctx } = useBundledSnapshots(now);
const render = (q: Record<string, string> = {}) => PremiumAgentsDirectoryResponse.parse(renderPremiumAgentsDirectory(ctx(), PremiumAgentsDirectoryQuery.parse(q)));
const route = premiumAgentsDirectoryRoutes[0]!;

describe("GET /api/premium/agents/directory over the bundled snapshots", () => {
  it("is a 1-credit premium route with an empty-filter no-charge outcome", () => {
    expect([route.path, route.tier, route.cost]).toEqual(["/api/premium/agents/directory", "premium", 1]);
    expect(Object.keys(route.noCharge!.outcomes)).toEqual(["no_match"]);
  });

  it("lists every curated agent by trending score by default, with the spec's fields", () => {
    const body = render();
    expect(body).toMatchObject({ sort: "trending", filters_applied: { category: null, status: null } });
    expect(body.total).toBeGreaterThan(30);
    expect(body.returned).toBe(Math.min(50, body.total));
    const scores = body.agents.map((a) => a.trending_score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    const claude = body.agents.find((a) => a.id === "claude-code")!;
    expect(claude).toMatchObject({ live_status: "degraded", status_page_url: "https://status.claude.com", flagship_pricing: { model: "claude-opus-4" } });
    expect(body.agents.find((a) => a.id === "crewai")).toMatchObject({ live_status: "unknown", agent_traffic_24h: null });
  });

  it("counts today's requests from the provider's agent bots, as /api/agents/activity records them", () => {
    const before = render().agents.find((a) => a.id === "chatgpt-agent")!.agent_traffic_24h!;
    serverActivity.record("Mozilla/5.0 (compatible; ChatGPT-User/1.0)", "/api/news", { now });
    serverActivity.record("Mozilla/5.0 (compatible; GPTBot/1.0)", "/api/news", { now });
    const body = render({ sort: "traffic" });
    expect(body.agents.find((a) => a.id === "chatgpt-agent")!.agent_traffic_24h).toBe(before + 1);
    expect(body.agents[0]!.provider).toBe("OpenAI");
    expect(body.agents[0]!.trending_score).toBeGreaterThanOrEqual(40);
  });

  it("filters by category and status and cuts to the limit; a filter with no match answers total 0 (free)", () => {
    const coding = render({ category: "coding", limit: "3" });
    expect(coding.returned).toBe(3);
    expect(coding.total).toBeGreaterThan(3);
    expect(coding.agents.every((a) => a.category === "coding")).toBe(true);
    const unknown = render({ status: "unknown" });
    expect(unknown.agents.every((a) => a.live_status === "unknown")).toBe(true);
    const none = render({ category: "general", status: "down" });
    expect(none).toMatchObject({ total: 0, returned: 0 });
    expect(route.noCharge!.check(none)).toBe("no_match");
    expect(route.noCharge!.check(coding)).toBeNull();
  });

  it("sorts by name", () => {
    const names = render({ sort: "name" }).agents.map((a) => a.name.toLowerCase());
    expect(names).toEqual([...names].sort());
  });

  it("validates the query", () => {
    const ok = (q: Record<string, string>) => PremiumAgentsDirectoryQuery.safeParse(q).success;
    expect(ok({ limit: "0" })).toBe(false);
    expect(ok({ limit: "101" })).toBe(false);
    expect(ok({ limit: "100" })).toBe(true);
    expect(ok({ sort: "random" })).toBe(false);
    expect(ok({ category: "robots" })).toBe(false);
    expect(ok({ status: "fine" })).toBe(false);
  });
});
