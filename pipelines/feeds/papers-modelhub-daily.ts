/**
 * The `papers-modelhub-daily` snapshot: the Hugging Face daily papers (editor-curated), each with its upvotes
 * and discussion comment count, deduplicated by paper id and sorted by upvotes (then comments, then id).
 * One request; the run fails when it fails.
 */
import type { Feed, FeedContext, FeedOutput } from "../lib/types.ts";
import { MODELHUB_DAILY_PAPERS_URL, modelhubDailyPapers } from "../sources/modelhub.ts";
import { DAILY_PAPERS_CAP, type PapersModelhubDailySnapshot, papersModelhubDailySnapshotType } from "../contract/snapshots/papers-modelhub-daily.ts";

export { DAILY_PAPERS_CAP, type PapersModelhubDailySnapshot, papersModelhubDailySnapshotSchema } from "../contract/snapshots/papers-modelhub-daily.ts";

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
    const papers = modelhubDailyPapers.normalize(parsed, { now: ctx.now }).slice(0, DAILY_PAPERS_CAP);
    return { data: { papers }, rows: papers.length, sources: [{ id: modelhubDailyPapers.id, ok: true, rows: papers.length }] };
  } catch (err) {
    throw new PapersModelhubDailyError(`papers-modelhub-daily: ${url} failed: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
}

/** The `papers-modelhub-daily` snapshot type. */
export const papersModelhubDailyFeed: Feed<PapersModelhubDailySnapshot> = {
  ...papersModelhubDailySnapshotType,
  urls: () => [MODELHUB_DAILY_PAPERS_URL],
  run: (ctx) => runPapersModelhubDaily(ctx),
};
