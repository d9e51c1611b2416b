import { describe, expect, it } from "vitest";
import type { AgentEntry } from "../../pipelines/contract/snapshots/agents.ts";
import type { Article } from "../../pipelines/contract/snapshots/news.ts";
import { agentsDirectory, flagshipOf, sameOrganisation, serviceOf, trafficOf, type Bot, type DirectoryInput, type PricedProvider, type StatusService } from "./agents-directory.ts";

const agent = (id: string, name: string, provider: string, category: AgentEntry["category"], statusPageUrl?: string): AgentEntry => ({
  id, name, provider, category, description: "d", url: "https://e.com", openSource: false, pricing: "p", source: ["https://e.com"], checked: "2026-11-22", ...(statusPageUrl ? { statusPageUrl } : {}),
});
const art = (id: string, title: string, publishedAt = "2026-11-20T00:00:00Z"): Article => ({
  id: id.padStart(16, "0"), title, url: `https://e.com/${id}`, source: "E", sourceDomain: "e.com", snippet: "", categories: [], publishedAt, fetchedAt: publishedAt,
});
const services: StatusService[] = [
  { provider: "openai", name: "OpenAI", status: "degraded", statusPageUrl: "https://status.openai.com" },
  { provider: "google", name: "Google Cloud (Vertex AI / Gemini)", status: "down", statusPageUrl: "https://status.cloud.google.com" },
];
const pricing: PricedProvider[] = [
  { id: "openai", name: "OpenAI", models: [
    { id: "old-flag", tier: "flagship", releaseDate: "2025-01-01", input: 10, output: 40 },
    { id: "new-flag", tier: "flagship", releaseDate: "2026-01-01", input: 2, output: 8 },
    { id: "newer-mid", tier: "mid", releaseDate: "2026-06-01", input: 1, output: 1 },
  ] },
  { id: "amazon", name: "Amazon", models: [{ id: "nova", tier: "mid", releaseDate: "2026-01-01", input: 1, output: 1 }] },
];
const bots: Bot[] = [
  { token: "ChatGPT-User", operator: "OpenAI", kind: "agent" },
  { token: "GPTBot", operator: "OpenAI", kind: "crawler" },
  { token: "Gemini-Deep-Research", operator: "Google", kind: "agent" },
];
const agents = [
  agent("codex", "Codex CLI", "OpenAI", "coding", "https://status.openai.com"),
  agent("jules", "Jules", "Google", "coding"),
  agent("crew", "CrewAI", "CrewAI", "framework"),
  agent("mariner", "Project Mariner", "Google DeepMind", "computer-use", "https://status.mariner.example"),
];
const now = new Date("2026-11-23T12:00:00Z");
const input = (over: Partial<DirectoryInput> = {}, query: Partial<DirectoryInput["query"]> = {}): DirectoryInput => ({
  agents, services, pricing, bots, now,
  articles: [art("1", "Jules writes code"), art("2", "Jules again"), art("3", "CrewAI raises"), art("4", "Codex CLI update"), art("5", "Jules", "2026-01-01T00:00:00Z")],
  by_bot: { "ChatGPT-User": 10, GPTBot: 100, "Gemini-Deep-Research": 5 },
  ...over,
  query: { sort: "trending", limit: 50, ...query },
});

describe("premium agents directory verdict", () => {
  it("joins live status, news, traffic, flagship pricing and a trending score", () => {
    const v = agentsDirectory(input());
    const by = Object.fromEntries(v.agents.map((a) => [a.id, a]));
    expect(by.codex).toMatchObject({ live_status: "degraded", status_page_url: "https://status.openai.com", recent_news_count: 1, agent_traffic_24h: 10, flagship_pricing: { model: "new-flag", input: 2, output: 8, blended: 3.5 } });
    // Jules: its provider's page (no own page), 2 recent articles (the January one is too old), Google's agent bot only.
    expect(by.jules).toMatchObject({ live_status: "down", status_page_url: "https://status.cloud.google.com", recent_news_count: 2, agent_traffic_24h: 5, flagship_pricing: null });
    expect(by.crew).toMatchObject({ live_status: "unknown", status_page_url: null, agent_traffic_24h: null, flagship_pricing: null });
    // An own status page we do not track is unknown, never its provider's.
    expect(by.mariner).toMatchObject({ live_status: "unknown", status_page_url: "https://status.mariner.example" });
    // trending = 100 × (0.6 × news/2 + 0.4 × traffic/10).
    expect(by.jules!.trending_score).toBe(80);
    expect(by.codex!.trending_score).toBe(70);
    expect(by.crew!.trending_score).toBe(30);
    expect(v.agents.map((a) => a.id)).toEqual(["jules", "codex", "crew", "mariner"]);
    expect(v).toMatchObject({ total: 4, returned: 4, sort: "trending", filters_applied: { category: null, status: null } });
  });

  it("uses the news share alone when no traffic was recorded", () => {
    const v = agentsDirectory(input({ by_bot: {} }));
    expect(v.agents.find((a) => a.id === "jules")!.trending_score).toBe(100);
    expect(v.agents.find((a) => a.id === "codex")!.trending_score).toBe(50);
    expect(v.notes.join(" ")).toContain("No agent traffic");
  });

  it("filters by category and status, scores before filtering, and cuts to the limit", () => {
    const coding = agentsDirectory(input({}, { category: "coding", limit: 1 }));
    expect(coding).toMatchObject({ total: 2, returned: 1, filters_applied: { category: "coding", status: null } });
    expect(coding.agents[0]).toMatchObject({ id: "jules", trending_score: 80 });
    expect(agentsDirectory(input({}, { status: "unknown" })).agents.map((a) => a.id)).toEqual(["crew", "mariner"]);
    expect(agentsDirectory(input({}, { category: "general" }))).toMatchObject({ total: 0, returned: 0, agents: [] });
  });

  it("sorts by news, traffic (null last) and name, ties by name", () => {
    expect(agentsDirectory(input({}, { sort: "news" })).agents.map((a) => a.id)).toEqual(["jules", "codex", "crew", "mariner"]);
    // Project Mariner (Google DeepMind) shares Google's agent bot with Jules: 5 each, the tie goes to the trending score.
    expect(agentsDirectory(input({}, { sort: "traffic" })).agents.map((a) => a.id)).toEqual(["codex", "jules", "mariner", "crew"]);
    expect(agentsDirectory(input({}, { sort: "name" })).agents.map((a) => a.name)).toEqual(["Codex CLI", "CrewAI", "Jules", "Project Mariner"]);
    const tie = agentsDirectory(input({ articles: [], by_bot: {} }));
    expect(tie.agents.map((a) => a.name)).toEqual(["Codex CLI", "CrewAI", "Jules", "Project Mariner"]);
    expect(tie.agents.every((a) => a.trending_score === 0)).toBe(true);
  });

  it("an empty directory answers total 0", () => {
    expect(agentsDirectory(input({ agents: [] }))).toMatchObject({ total: 0, returned: 0, agents: [] });
  });

  it("matches organisations by name or first word, never by a shared substring", () => {
    expect(sameOrganisation("Google DeepMind", "google")).toBe(true);
    expect(sameOrganisation("Amazon Web Services", "Amazon")).toBe(true);
    expect(sameOrganisation("Hugging Face", "huggingface")).toBe(true);
    expect(sameOrganisation("OpenAI", "azure-openai")).toBe(false);
    expect(serviceOf(agent("x", "X", "Microsoft", "framework"), services)).toBeUndefined();
    expect(trafficOf(agent("x", "X", "OpenAI", "framework"), bots, {})).toBe(0);
    expect(flagshipOf(agent("x", "X", "Amazon Web Services", "coding"), pricing)).toBeNull();
  });
});
