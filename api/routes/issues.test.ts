import { describe, expect, it } from "vitest";
import type { LoadedSnapshot, RenderContext, SnapshotMeta, SnapshotReader } from "../registry/types.ts";
import { IssuesHotResponse, issuesRoutes, renderIssuesHot } from "./issues.ts";
import type { IssuesHotSnapshot } from "../../pipelines/contract/snapshots/issues-hot.ts";

const data: IssuesHotSnapshot = {
  window_days: 7,
  min_comments: 10,
  window_end: "2026-11-22T12:20:00.000Z",
  queries: [{ id: "llm-bugs", label: "bug-labelled issues", q: "is:issue is:open comments:>=10 label:bug llm" }],
  issues: [
    {
      url: "https://github.com/o/r/issues/1",
      repository: "o/r",
      number: 1,
      title: "Crash",
      comments: 42,
      reactions: 3,
      labels: ["bug"],
      author: "a",
      created_at: "2026-11-10T00:00:00.000Z",
      updated_at: "2026-11-22T12:20:00.000Z",
      queries: ["llm-bugs"],
    },
  ],
};
const meta = (over: Partial<SnapshotMeta> = {}): SnapshotMeta => ({
  type: "issues-hot", date: "2026-11-22", lastSuccess: "2026-11-22T12:30:04.000Z", lastAttempt: "2026-11-22T12:30:04.000Z", lastChanged: "2026-11-22T12:30:04.000Z",
  lastError: null, rows: 1, provenance: "replay", slaSeconds: 172800, cadence: "daily at 12:30 UTC", sources: [], ...over,
});
function ctx(snapshot: LoadedSnapshot<unknown> | undefined): RenderContext {
  const reader: SnapshotReader = {
    get: <T,>(type: string) => (type === "issues-hot" ? (snapshot as LoadedSnapshot<T> | undefined) : undefined),
    types: () => (snapshot ? ["issues-hot"] : []),
    dates: () => [],
    dated: async () => undefined,
  };
  return { snapshots: reader, baseUrl: "http://localhost:3000", now: new Date("2026-11-22T13:00:00Z") };
}

describe("issues routes", () => {
  it("renderIssuesHot() returns ok, the snapshot and updated = lastSuccess", () => {
    const body = IssuesHotResponse.parse(renderIssuesHot(ctx({ type: "issues-hot", data, meta: meta() })));
    expect(body.ok).toBe(true);
    expect(body).toEqual({ ok: true, snapshot: data, updated: "2026-11-22T12:30:04.000Z" });
  });

  it("renderIssuesHot() answers 503 snapshot_unavailable when missing or malformed", () => {
    expect(() => renderIssuesHot(ctx(undefined))).toThrow(expect.objectContaining({ status: 503, code: "snapshot_unavailable" }));
    expect(() => renderIssuesHot(ctx({ type: "issues-hot", data: { issues: "nope" }, meta: meta() }))).toThrow(expect.objectContaining({ status: 503 }));
  });

  it("issuesRoutes declare a free route over the issues-hot snapshot, daily", () => {
    const [r] = issuesRoutes;
    expect(r).toMatchObject({ method: "GET", path: "/api/issues/hot", tier: "free", snapshots: ["issues-hot"], freshness: { cadence: "daily at 12:30 UTC", slaSeconds: 172800 } });
    expect(r!.description).toMatch(/pull requests/);
  });
});
