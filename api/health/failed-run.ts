/** The one console line a failed pipeline run prints on `npm start`: feed, cause and next attempt. */
import { Cron } from "croner";

/** `pipeline <feed> failed: <cause>; next attempt <ISO time> (<cron> UTC)`; the cause is cut to 300 characters. */
export function failedRunLine(feed: string, cause: string, cron: string | undefined, now = new Date()): string {
  let next = "not scheduled";
  if (cron) {
    try {
      const at = new Cron(cron, { timezone: "UTC", paused: true }).nextRun(now);
      if (at) next = `${at.toISOString()} (${cron} UTC)`;
    } catch {
      next = `unknown (cron ${JSON.stringify(cron)} unreadable)`;
    }
  }
  const oneLine = cause.replace(/\s+/g, " ").trim();
  return `pipeline ${feed} failed: ${oneLine.length > 300 ? `${oneLine.slice(0, 299)}…` : oneLine}; next attempt ${next}`;
}
