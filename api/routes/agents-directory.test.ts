import { describe, expect, it } from "vitest";
import { agentsFeed } from "../../pipelines/feeds/agents.ts";
import { createApp, type AnyRoute, type ServedSnapshots } from "../app.ts";
import { ApiError, type LoadedSnapshot, type RenderContext } from "../registry/types.ts";
import { AgentsDirectoryQuery, AgentsDirectoryResponse, agentsDirectoryRoutes } from "./agents-directory.ts";
import type { AgentsSnapshot } from "../../pipelines/contract/snapshots/agents.ts";

const data: AgentsSnapshot = (await agentsFeed.run()).data;

function snapshots(body: unknown | undefined): ServedSnapshots {
  const loaded = body === undefined ? undefined : ({
    type: "agents",
    data: body,
    meta: {
      type: "agents", date: "2026-11-22", lastSuccess: "2026-11-22T05:17:04.000Z", lastAttempt: "2026-11-22T05:17:04.000Z",
      lastChanged: "2026-11-22T05:17:04.000Z", lastError: null, rows: 38, provenance: "live", slaSeconds: 172_800, cadence: "daily", sources: [],
    },
  } satisfies LoadedSnapshot);
  return {
    generation: 1,
    get: <T,>(type: string) => (type === "agents" ? (loaded as LoadedSnapshot<T> | undefined) : undefined),
    types: () => (loaded ? ["agents"] : []),
    dates: () => [],
    dated: async () => undefined,
  };
}

const ctx = (body: unknown | undefined): RenderContext => ({ snapshots: snapshots(body), baseUrl: "http://localhost:3000", now: new Date("2026-11-23T00:00:00Z") });
const render = agentsDirectoryRoutes[0]!.render!;

describe("GET /api/agents/directory", () => {
  it("render() returns source, the categories present and every agent, passing the strict response schema", async () => {
    const body = AgentsDirectoryResponse.parse(await render(ctx(data), { query: {}, params: {} }));
    expect(body.ok).toBe(true);
    expect(body.source).toBe(data.source);
    expect(body.agents).toEqual(data.agents);
    expect(body.categories).toEqual([...new Set(data.agents.map((a) => a.category))].sort());
  });

  it("render() throws 503 snapshot_unavailable when the snapshot is missing or malformed", async () => {
    for (const body of [undefined, { agents: [] }]) {
      const err = await Promise.resolve()
        .then(() => render(ctx(body), { query: {}, params: {} }))
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ApiError);
      expect(err).toMatchObject({ status: 503, code: "snapshot_unavailable" });
    }
  });

  it("AgentsDirectoryQuery accepts no parameters and rejects unknown ones", () => {
    expect(AgentsDirectoryQuery.safeParse({}).success).toBe(true);
    expect(AgentsDirectoryQuery.safeParse({ category: "coding" }).success).toBe(false);
  });

  it("the served route answers 200 with the directory", async () => {
    const { app, dispose } = createApp({ routes: agentsDirectoryRoutes as readonly AnyRoute[], snapshots: snapshots(data), baseUrl: "http://localhost", rateLimitPerMinute: 0, trustProxy: null });
    try {
      const res = await app.fetch(new Request("http://localhost/api/agents/directory"));
      expect(res.status).toBe(200);
      const body = AgentsDirectoryResponse.parse(await res.json());
      expect(body.agents.length).toBe(data.agents.length);
    } finally {
      dispose();
    }
  });
});
