/** What every evaluator returns, and the fire-cap and expiry rule every fire goes through. */
import { round } from "../verdicts/round.ts";

/** The outcome of evaluating one watch against the current values. */
export interface Evaluation<Seen> {
  /** What to remember as last_seen (the edge-trigger memory). */
  seen: Seen;
  /** The match object of the delivery when the watch fires, else null. */
  match: Record<string, unknown> | null;
}

/** The parts of a watch row the fire rule reads. */
export interface FireState {
  status: string;
  fire_count: number;
  fire_cap: number;
  expires_at: Date | string;
}

/** Whether a watch may fire now, and its status after firing: only active, unexpired watches under their cap fire; the fire that reaches the cap makes it capped. */
export function fireRule(watch: FireState, now: Date): { mayFire: boolean; statusAfterFire: "active" | "capped" } {
  const expired = new Date(watch.expires_at).getTime() <= now.getTime();
  const mayFire = watch.status === "active" && !expired && watch.fire_count < watch.fire_cap;
  return { mayFire, statusAfterFire: watch.fire_count + 1 >= watch.fire_cap ? "capped" : "active" };
}

/** Percentage change from `from` to `to`, rounded to 2 decimals; null from 0. */
export function deltaPct(from: number, to: number): number | null {
  if (from === 0) return null;
  return round(((to - from) / from) * 100, 2);
}
