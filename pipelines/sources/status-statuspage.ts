/**
 * Atlassian Statuspage `GET /api/v2/summary.json` (https://developer.statuspage.io/ — public page API, no
 * key). incident.io-hosted pages serve the same document at the same path (their Statuspage-compatible
 * API), so one source reads both. No documented rate limit; we poll every 2 minutes.
 *
 * Mapping — component `status`: operational → operational; degraded_performance, partial_outage →
 * degraded; major_outage → down; under_maintenance → degraded; anything else → unknown. Page
 * `status.indicator`: none → operational; minor, major, maintenance → degraded; critical → down; else
 * unknown. Group containers (`group: true`) are skipped; their children are kept in upstream order.
 * A component that does not have the shape (a null name, a missing status) is skipped alone and counted in
 * `skipped`, which the status feed reports; one bad component never costs the provider its page.
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

const pageInfo = z.looseObject({ id: z.string().optional(), name: z.string().optional(), url: z.string().optional() });
const pageStatus = z.looseObject({ indicator: z.string(), description: z.string().nullish() });
const summary = z.looseObject({
  page: pageInfo,
  // Checked one by one in parse(), so a bad component is skipped instead of failing the page.
  components: z.array(z.unknown()),
  status: pageStatus.optional(),
});

/** The parts of summary.json we read: the readable components, and how many were skipped as unreadable. */
export interface StatuspageSummary {
  page: z.infer<typeof pageInfo>;
  components: z.infer<typeof component>[];
  status?: z.infer<typeof pageStatus> | undefined;
  skipped: number;
}

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
    const top = parseWith("status-statuspage", summary, parseJsonBody("status-statuspage", body));
    const components: z.infer<typeof component>[] = [];
    let skipped = 0;
    for (const item of top.components) {
      const c = component.safeParse(item);
      if (c.success) components.push(c.data);
      else skipped++;
    }
    return { page: top.page, components, status: top.status, skipped };
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
