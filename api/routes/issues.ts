/**
 * GET /api/issues/hot: open AI-ecosystem issues on GitHub with 10+ comments updated in the last 7 days,
 * deduplicated by URL, top 30 by comments — the `issues-hot` snapshot (daily 12:30 UTC), served as written.
 */
import { z } from "zod";
import { defineRoute } from "../registry/define.ts";
import type { RenderContext } from "../registry/types.ts";
import { renderSnapshot } from "../serve/read-snapshot.ts";
import { IssuesHotSnapshotSchema, issuesHotSnapshotType } from "../../pipelines/contract/snapshots/issues-hot.ts";

/** Body of GET /api/issues/hot. */
export const IssuesHotResponse = z.strictObject({
  ok: z.literal(true),
  snapshot: IssuesHotSnapshotSchema,
  updated: z.iso.datetime().nullable().meta({ description: "Last successful pipeline run (manifest lastSuccess)." }),
});
export type IssuesHotBody = z.infer<typeof IssuesHotResponse>;

/** Pure render of GET /api/issues/hot. */
export function renderIssuesHot(ctx: RenderContext): IssuesHotBody {
  return renderSnapshot(ctx.snapshots, { type: "issues-hot", schema: IssuesHotSnapshotSchema });
}

/** /api/issues/hot. */
export const issuesRoutes = [
  defineRoute({
    method: "GET",
    path: "/api/issues/hot",
    tier: "free",
    summary: "Hot open GitHub issues in AI projects: 10+ comments, updated in the last 7 days, top 30 by comments.",
    description:
      "Four GitHub issue searches (bug-labelled issues mentioning LLMs anywhere; inference engines; model and application frameworks; coding agents and official SDKs — snapshot.queries lists them) of the form `is:issue is:open comments:>=10 <scope>`, sorted by last update, 100 results each. The rules are applied by the service: pull requests, closed issues and issues under 10 comments are dropped; the 7-day window ends at window_end (the run time, or the newest update GitHub reported when earlier); an issue found by several queries appears once with every query id in `queries`; ranked by comments, then most recent update. Titles and labels are sanitized as the plain text GitHub sends (control, bidi and invisible characters removed, prompt-injection phrases replaced by [filtered], clipped), so `Option<String>` or `<svg>` in a title stays as typed.",
    tags: ["community"],
    response: IssuesHotResponse,
    snapshots: ["issues-hot"],
    freshness: { cadence: issuesHotSnapshotType.cadence, slaSeconds: issuesHotSnapshotType.slaSeconds },
    render: (ctx) => renderIssuesHot(ctx),
  }),
];
