/** The `issues-hot` snapshot: the most-discussed recent issues of AI repositories on the code-hosting search API (GitHub). */
import { z } from "zod";
import { httpUrl } from "../fields.ts";
import type { SnapshotType } from "../snapshot-type.ts";

/** Issues kept in the snapshot. */
export const ISSUES_TOP = 30;

/** Minimum comment count. */
export const ISSUES_MIN_COMMENTS = 10;

/** Window, in days, an issue must have been updated in. */
export const ISSUES_WINDOW_DAYS = 7;

/** One issue as the snapshot carries it. */
export const HotIssueSchema = z.strictObject({
  url: httpUrl,
  repository: z.string(),
  number: z.number().int().positive(),
  title: z.string(),
  comments: z.number().int().min(ISSUES_MIN_COMMENTS),
  reactions: z.number().int().nonnegative(),
  labels: z.array(z.string()),
  author: z.string().nullable(),
  created_at: z.iso.datetime(),
  updated_at: z.iso.datetime(),
  /** Ids of the ISSUE_QUERIES that found it. */
  queries: z.array(z.string()).min(1),
});

export type HotIssue = z.infer<typeof HotIssueSchema>;

/** The `issues-hot` snapshot body. */
export const IssuesHotSnapshotSchema = z.strictObject({
  window_days: z.literal(ISSUES_WINDOW_DAYS),
  min_comments: z.literal(ISSUES_MIN_COMMENTS),
  /** End of the 7-day window (see the module comment). */
  window_end: z.iso.datetime(),
  queries: z.array(z.strictObject({ id: z.string(), label: z.string(), q: z.string() })),
  issues: z.array(HotIssueSchema).max(ISSUES_TOP),
});

export type IssuesHotSnapshot = z.infer<typeof IssuesHotSnapshotSchema>;

/** The `issues-hot` snapshot type. */
export const issuesHotSnapshotType = {
  type: "issues-hot",
  title: "Hot AI issues on GitHub",
  cron: "30 12 * * *",
  cadence: "daily at 12:30 UTC",
  slaSeconds: 172_800,
  schema: IssuesHotSnapshotSchema,
} satisfies SnapshotType<IssuesHotSnapshot>;
