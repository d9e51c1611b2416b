/**
 * What every status-page source shares: the four-value status enum, the strict service entry each source
 * normalizes to (the spec's "Service status entry" minus `lastChecked`, which the server injects), the
 * per-provider meta a source receives from the catalog, and the small helpers that turn upstream values
 * into entries.
 */
import { z } from "zod";
import { sanitize } from "../lib/sanitize.ts";
import type { ServiceStatus, StatusComponent, StatusEntry } from "../contract/snapshots/status.ts";

export { serviceStatus, type ServiceStatus, statusComponent, type StatusComponent, statusEntry, type StatusEntry } from "../contract/snapshots/status.ts";

/** What the catalog hands a status source for one provider. */
export interface StatusMeta {
  provider: string;
  name: string;
  statusPageUrl: string;
  /**
   * Components that matter, by name (case-insensitive). Statuspage / Better Stack: keep only these.
   * Google Cloud: the product titles to report. RSS: keywords an item must mention to count.
   */
  components?: string[];
  /** RSS/Atom only: an item older than this many hours is history, not a current incident. */
  activeHours?: number;
}

const RANK: Record<Exclude<ServiceStatus, "unknown">, number> = { operational: 0, degraded: 1, down: 2 };

/** The worse of known statuses (operational < degraded < down); undefined when none is known. */
export function worstKnown(statuses: ServiceStatus[]): Exclude<ServiceStatus, "unknown"> | undefined {
  let worst: Exclude<ServiceStatus, "unknown"> | undefined;
  for (const s of statuses) {
    if (s === "unknown") continue;
    if (worst === undefined || RANK[s] > RANK[worst]) worst = s;
  }
  return worst;
}

/**
 * The provider's overall status. A page-level verdict (Statuspage indicator, Better Stack aggregate state)
 * is raised by any worse component; a component with an unknown value never lowers or raises it. With no
 * usable page-level verdict, the worst known component decides, and nothing known gives `unknown`.
 */
export function overallStatus(page: ServiceStatus | undefined, components: ServiceStatus[]): ServiceStatus {
  const worstComponent = worstKnown(components);
  if (page === undefined) return worstComponent ?? "unknown";
  if (page === "unknown") return worstComponent === undefined || worstComponent === "operational" ? "unknown" : worstComponent;
  return worstKnown([page, worstComponent ?? page]) ?? page;
}

/** Clean an upstream label (component names) with the shared sanitizer, capped at 120 characters. */
export function cleanLabel(raw: string): string {
  return sanitize(raw, { maxLength: 120 });
}

/** True when the catalog asks for no filter or lists this name (case-insensitive). */
export function wanted(meta: StatusMeta, name: string): boolean {
  if (!meta.components || meta.components.length === 0) return true;
  const n = name.toLowerCase();
  return meta.components.some((c) => c.toLowerCase() === n);
}

/** Build the entry for one provider from its meta and normalized parts. */
export function entryFor(meta: StatusMeta, status: ServiceStatus, components: StatusComponent[]): StatusEntry {
  return { name: meta.name, provider: meta.provider, status, statusPageUrl: meta.statusPageUrl, components };
}

/** Parse a JSON body or throw a StatusParseError naming the source. */
export function parseJsonBody(sourceId: string, body: string): unknown {
  try {
    return JSON.parse(body);
  } catch (cause) {
    throw new StatusParseError(`${sourceId}: body is not JSON (starts ${JSON.stringify(body.slice(0, 40))})`, { cause });
  }
}

/** A status page body that does not have the shape its format promises. */
export class StatusParseError extends Error {
  override name = "StatusParseError";
}

/** Throw a StatusParseError with the zod issues of a failed tolerant parse. */
export function parseWith<T>(sourceId: string, schema: z.ZodType<T>, value: unknown): T {
  const result = schema.safeParse(value);
  if (!result.success) {
    const issues = result.error.issues.slice(0, 3).map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`);
    throw new StatusParseError(`${sourceId}: unexpected body shape: ${issues.join("; ")}`, { cause: result.error });
  }
  return result.data;
}
