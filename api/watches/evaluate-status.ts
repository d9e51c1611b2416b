/**
 * status watches: becomes fires when the provider's status turns into the value from anything else (or from
 * unknown memory), changes fires on any transition between two known readings.
 */
import type { StatusSpec } from "./spec.ts";
import type { Evaluation } from "./evaluation.ts";

/** What a status watch remembers: the status it last saw (null when unknown). */
export interface StatusSeen {
  value: string | null;
}

/** Evaluate one status watch; `current` is undefined when the provider left the status data (nothing changes then). */
export function evaluateStatus(spec: StatusSpec, last: StatusSeen | null, current: string | undefined): Evaluation<StatusSeen> {
  const old = last?.value ?? null;
  if (current === undefined) return { seen: { value: old }, match: null };
  const seen = { value: current };
  if (old === current) return { seen, match: null };
  const fires = spec.op === "becomes" ? current === spec.value : old !== null;
  return { seen, match: fires ? { type: "status", provider: spec.provider, from: old, to: current } : null };
}
