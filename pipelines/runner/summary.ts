/** The table printed at the end of a run. */
import type { FeedResult } from "./run-feeds.ts";

/** Render results as an aligned text table, followed by each feed's error and notices. */
export function formatSummary(results: FeedResult[]): string {
  const header = ["feed", "status", "rows", "ms", "notices"];
  const body = results.map((r) => [r.feed, r.status, String(r.rows), String(r.durationMs), String(r.notices.length)]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => row[i]!.length)));
  const numeric = new Set([2, 3, 4]);
  const line = (cells: string[]) =>
    cells.map((c, i) => (numeric.has(i) ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join("  ").trimEnd();
  const out = [line(header), line(widths.map((w) => "-".repeat(w))), ...body.map(line)];
  const failed = results.filter((r) => r.status === "failed").length;
  const changed = results.filter((r) => r.status === "changed").length;
  out.push("", `${results.length} feeds: ${changed} changed, ${results.length - changed - failed} unchanged, ${failed} failed`);
  for (const r of results) {
    if (r.error) out.push(`${r.feed}: error: ${r.error}`);
    for (const n of r.notices) out.push(`${r.feed}: notice: ${n}`);
  }
  return out.join("\n") + "\n";
}
