import { afterAll, describe, expect, it } from "vitest";
import { type ClosableHttpClient, createHttpClient } from "../lib/http/client.ts";
import { testFeedContext } from "../lib/testing/feed-context.ts";
import type { IssueHit } from "../sources/github-search.ts";
import { ISSUE_QUERIES, IssuesHotSnapshotSchema, issueQueryUrl, issuesHotFeed, runIssuesHot, selectHotIssues, windowEnd } from "./issues-hot.ts";

const NOW = new Date("2026-11-22T12:30:00Z");
const clients: ClosableHttpClient[] = [];
const client = (dir = "pipelines/fixtures") => {
  const c = createHttpClient({ replayDir: dir, retries: 0, sleep: async () => {} });
  clients.push(c);
  return c;
};
afterAll(async () => Promise.all(clients.map((c) => c.close())));

const END = new Date("2026-11-21T12:00:00Z");
let n = 0;
function hit(over: Partial<IssueHit> = {}): IssueHit {
  n++;
  return {
    url: `https://github.com/o/r/issues/${n}`,
    repository: "o/r",
    number: n,
    title: `Issue ${n}`,
    state: "open",
    comments: 20,
    reactions: 0,
    labels: [],
    author: "a",
    created_at: "2026-11-01T00:00:00.000Z",
    updated_at: "2026-11-20T00:00:00.000Z",
    is_pull_request: false,
    ...over,
  };
}

describe("issues-hot selection rules", () => {
  it("selectHotIssues() drops an issue with 9 comments and keeps one with 10", () => {
    const out = selectHotIssues([{ query: "q", hits: [hit({ comments: 9 }), hit({ comments: 10, title: "ten" })] }], END);
    expect(out.map((i) => i.title)).toEqual(["ten"]);
  });

  it("selectHotIssues() drops an issue updated 8 days before the window end", () => {
    const eight = new Date(END.getTime() - 8 * 86_400_000).toISOString();
    const six = new Date(END.getTime() - 6 * 86_400_000).toISOString();
    const out = selectHotIssues([{ query: "q", hits: [hit({ updated_at: eight, title: "old" }), hit({ updated_at: six, title: "recent" })] }], END);
    expect(out.map((i) => i.title)).toEqual(["recent"]);
  });

  it("selectHotIssues() drops pull requests and closed issues", () => {
    const out = selectHotIssues([{ query: "q", hits: [hit({ is_pull_request: true }), hit({ state: "closed" }), hit({ title: "kept" })] }], END);
    expect(out.map((i) => i.title)).toEqual(["kept"]);
  });

  it("selectHotIssues() merges a URL found by two queries and lists both", () => {
    const shared = hit({ comments: 30 });
    const out = selectHotIssues([{ query: "b", hits: [shared] }, { query: "a", hits: [{ ...shared, comments: 31, updated_at: "2026-11-20T05:00:00.000Z" }] }], END);
    expect(out).toHaveLength(1);
    expect(out[0]!.queries).toEqual(["a", "b"]);
    expect(out[0]!.comments).toBe(31);
  });

  it("selectHotIssues() keeps the top 30 by comments", () => {
    const hits = Array.from({ length: 35 }, (_, i) => hit({ comments: 10 + i }));
    const out = selectHotIssues([{ query: "q", hits }], END);
    expect(out).toHaveLength(30);
    expect(out[0]!.comments).toBe(44);
    expect(out.at(-1)!.comments).toBe(15);
  });

  it("windowEnd() is the newest reported update when earlier than now, else now", () => {
    const results = [{ query: "q", hits: [hit({ updated_at: "2026-11-21T12:29:00.000Z" }), hit({ updated_at: "2026-11-19T00:00:00.000Z" })] }];
    expect(windowEnd(NOW, results).toISOString()).toBe("2026-11-21T12:29:00.000Z");
    expect(windowEnd(new Date("2026-11-21T00:00:00Z"), results).toISOString()).toBe("2026-11-21T00:00:00.000Z");
    expect(windowEnd(NOW, []).toISOString()).toBe(NOW.toISOString());
  });
});

describe("issuesHotFeed", () => {
  it("issuesHotFeed declares its type, daily 12:30 schedule and date-free query URLs", () => {
    expect(issuesHotFeed.type).toBe("issues-hot");
    expect(issuesHotFeed.cron).toBe("30 12 * * *");
    expect(issuesHotFeed.urls()).toEqual(ISSUE_QUERIES.map((q) => issueQueryUrl(q.scope)));
    for (const u of issuesHotFeed.urls()) expect(u).not.toMatch(/updated%3A|\d{4}-\d{2}-\d{2}/);
  });

  it("run() builds the snapshot from the recorded searches, applying every rule", async () => {
    const out = await issuesHotFeed.run(testFeedContext({ http: client(), now: NOW }));
    const data = IssuesHotSnapshotSchema.parse(out.data);
    expect(data.issues).toHaveLength(30);
    expect(out.rows).toBe(30);
    expect(out.sources?.every((s) => s.ok)).toBe(true);
    const urls = data.issues.map((i) => i.url);
    expect(new Set(urls).size).toBe(urls.length);
    expect(urls.some((u) => u.includes("/pull/"))).toBe(false);
    expect(data.issues.every((i) => i.comments >= 10)).toBe(true);
    const from = Date.parse(data.window_end) - 7 * 86_400_000;
    expect(data.issues.every((i) => Date.parse(i.updated_at) >= from)).toBe(true);
    expect(data.issues.map((i) => i.comments)).toEqual([...data.issues.map((i) => i.comments)].sort((a, b) => b - a));
    expect(data.issues[0]).toMatchObject({ repository: "anthropics/claude-code", comments: 86 });
    const dup = data.issues.find((i) => i.url === "https://github.com/vllm-project/vllm/issues/28841");
    expect(dup?.queries).toEqual(["inference-engines", "llm-bugs"]);
    expect(urls).not.toContain("https://github.com/Mintplex-Labs/anything-llm/issues/4620"); // 9 comments
    expect(urls).not.toContain("https://github.com/mudler/LocalAI/issues/6914"); // updated 8 days earlier
    expect(urls).not.toContain("https://github.com/huggingface/transformers/issues/41990"); // closed
  });

  it("run() skips a failing query with a notice and fails only when all fail", async () => {
    const { mkdtempSync, mkdirSync, cpSync, rmSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const { join, dirname } = await import("node:path");
    const { replayPathFor } = await import("../lib/replay-path.ts");
    const dir = mkdtempSync(join(tmpdir(), "issues-hot-"));
    try {
      const [first, ...rest] = ISSUE_QUERIES;
      for (const q of rest) {
        const rel = replayPathFor(issueQueryUrl(q.scope));
        mkdirSync(dirname(join(dir, rel)), { recursive: true });
        cpSync(join("pipelines/fixtures", rel), join(dir, rel));
      }
      const ctx = testFeedContext({ http: client(dir), now: NOW });
      const out = await runIssuesHot(ctx);
      expect(out.sources?.find((s) => s.id === `github:${first!.id}`)?.ok).toBe(false);
      expect(ctx.notices.some((m) => m.includes(first!.id))).toBe(true);
      expect(out.data.issues.length).toBeGreaterThan(0);
      const empty = mkdtempSync(join(tmpdir(), "issues-hot-empty-"));
      await expect(runIssuesHot(testFeedContext({ http: client(empty), now: NOW }))).rejects.toThrow(/every query failed/);
      rmSync(empty, { recursive: true, force: true });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
