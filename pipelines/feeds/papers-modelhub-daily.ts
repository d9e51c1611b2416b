/**
 * The `papers-modelhub-daily` snapshot: the Hugging Face daily papers (editor-curated), each with its upvotes
 * and discussion comment count, deduplicated by paper id and sorted by upvotes (then comments, then id).
 * One request; the run fails when it fails.
 */
import { z } from "zod";
import type { Feed, FeedContext, FeedOutput } from "../lib/types.ts";
import { MODELHUB_DAILY_PAPERS_URL, hubPaperSchema, modelhubDailyPapers } from "../sources/modelhub.ts";

/** Papers kept in the snapshot (the hub lists about 50 a day at most). */
export const DAILY_PAPERS_CAP = 100;

/** The papers-modelhub-daily snapshot body. */
export const papersModelhubDailySnapshotSchema = z
  .strictObject({ papers: z.array(hubPaperSchema).max(DAILY_PAPERS_CAP) })
  .refine((s) => new Set(s.papers.map((p) => p.id)).size === s.papers.length, "papers must have unique ids")
  .refine((s) => s.papers.every((p, i) => i === 0 || s.papers[i - 1]!.upvotes >= p.upvotes), "papers must be sorted by upvotes, most first");
export type PapersModelhubDailySnapshot = z.infer<typeof papersModelhubDailySnapshotSchema>;

/** Thrown when the daily papers listing could not be read. */
export class PapersModelhubDailyError extends Error {
  override name = "PapersModelhubDailyError";
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** Build the snapshot from the daily papers listing. */
export async function runPapersModelhubDaily(ctx: FeedContext): Promise<FeedOutput<PapersModelhubDailySnapshot>> {
  const url = MODELHUB_DAILY_PAPERS_URL;
  try {
    const { body } = await ctx.http.getText(url, { headers: { accept: "application/json" } });
    const parsed = modelhubDailyPapers.parse(body);
    if (parsed.skipped > 0) ctx.notice(`papers-modelhub-daily: skipped ${parsed.skipped} unreadable entries`);
    const papers = modelhubDailyPapers.normalize(parsed).slice(0, DAILY_PAPERS_CAP);
    return { data: { papers }, rows: papers.length, sources: [{ id: modelhubDailyPapers.id, ok: true, rows: papers.length }] };
  } catch (err) {
    throw new PapersModelhubDailyError(`papers-modelhub-daily: ${url} failed: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
}

/** The `papers-modelhub-daily` snapshot type. */
export const papersModelhubDailyFeed: Feed<PapersModelhubDailySnapshot> = {
  type: "papers-modelhub-daily",
  title: "Model hub daily papers",
  cron: "30 14 * * *",
  cadence: "daily at 14:30 UTC",
  slaSeconds: 172_800,
  schema: papersModelhubDailySnapshotSchema,
  urls: () => [MODELHUB_DAILY_PAPERS_URL],
  run: (ctx) => runPapersModelhubDaily(ctx),
};
