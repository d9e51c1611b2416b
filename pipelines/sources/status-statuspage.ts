/**
 * Atlassian Statuspage `GET /api/v2/summary.json` (https://developer.statuspage.io/ — public page API, no
 * key). incident.io-hosted pages serve the same document at the same path (their Statuspage-compatible
 * API), so one source reads both. No documented rate limit; we poll every 2 minutes.
 *
 * Mapping — component `status`: operational → operational; degraded_performance, partial_outage →
 * degraded; major_outage → down; under_maintenance → degraded; anything else → unknown. Page
 * `status.indicator`: none → operational; minor, major, maintenance → degraded; critical → down; else
 * unknown. Group containers (`group: true`) are skipped; their children are kept in upstream order.
 */
import { z } from "zod";
import type { NormalizeContext, Source } from "../lib/types.ts";
import {
  type ServiceStatus,
  type StatusEntry,
  type StatusMeta,
  cleanLabel,
  entryFor,
  overallStatus,
  parseJsonBody,
  parseWith,
  statusEntry,
  wanted,
} from "./status-common.ts";

const component = z.looseObject({
  id: z.string().optional(),
  name: z.string(),
  status: z.string(),
  group: z.boolean().nullish(),
  group_id: z.string().nullish(),
  position: z.number().nullish(),
});

const summary = z.looseObject({
  page: z.looseObject({ id: z.string().optional(), name: z.string().optional(), url: z.string().optional() }),
  components: z.array(component),
  status: z.looseObject({ indicator: z.string(), description: z.string().nullish() }).optional(),
});

/** The parts of summary.json we read. */
export type StatuspageSummary = z.infer<typeof summary>;

/** Map a Statuspage component status to the four values. */
export function mapStatuspageComponent(value: string): ServiceStatus {
  switch (value) {
    case "operational":
      return "operational";
    case "degraded_performance":
    case "partial_outage":
    case "under_maintenance":
      return "degraded";
    case "major_outage":
      return "down";
    default:
      return "unknown";
  }
}

/** Map a Statuspage page indicator to the four values. */
export function mapStatuspageIndicator(value: string): ServiceStatus {
  switch (value) {
    case "none":
      return "operational";
    case "minor":
    case "major":
    case "maintenance":
      return "degraded";
    case "critical":
      return "down";
    default:
      return "unknown";
  }
}

/** Statuspage (and incident.io's compatible) summary.json → one service entry. */
export const statuspageSource = {
  id: "status-statuspage",
  description: "Atlassian Statuspage / incident.io-compatible /api/v2/summary.json; public, no key; polled every 2 min",
  parse(body: string): StatuspageSummary {
    return parseWith("status-statuspage", summary, parseJsonBody("status-statuspage", body));
  },
  normalize(parsed: StatuspageSummary, ctx: NormalizeContext & { meta: StatusMeta }): StatusEntry[] {
    const { meta } = ctx;
    const components = parsed.components
      .filter((c) => c.group !== true)
      .map((c) => ({ name: cleanLabel(c.name), status: mapStatuspageComponent(c.status) }))
      .filter((c) => c.name !== "" && wanted(meta, c.name));
    const filtered = meta.components !== undefined && meta.components.length > 0;
    // With a component filter the page indicator speaks for components we dropped, so it is not used.
    const page = !filtered && parsed.status ? mapStatuspageIndicator(parsed.status.indicator) : undefined;
    return [entryFor(meta, overallStatus(page, components.map((c) => c.status)), components)];
  },
  row: statusEntry,
} satisfies Source<StatuspageSummary, StatusEntry, StatusMeta>;
