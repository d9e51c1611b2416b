/**
 * Google Cloud Service Health `GET https://status.cloud.google.com/incidents.json` (public, no key): an array
 * of incidents with `begin`/`end`, `status_impact`, `severity` and `affected_products[{ title, id }]`.
 * There is no component list, so the catalog names the products that matter (e.g. "Vertex Gemini API") and
 * each becomes a component. No documented rate limit; we poll every 2 minutes.
 *
 * Mapping — an incident is current while it has no `end` (or `end` is after the run's clock). Its impact:
 * SERVICE_OUTAGE → down; SERVICE_DISRUPTION → degraded; SERVICE_INFORMATION → operational; a missing or
 * other value falls back to `severity` (high → down; medium, low → degraded; else unknown). A product with
 * no current incident is operational; one with several takes the worst. The provider takes the worst product.
 */
import { z } from "zod";
import type { NormalizeContext, Source } from "../lib/types.ts";
import {
  type ServiceStatus,
  type StatusComponent,
  type StatusEntry,
  type StatusMeta,
  cleanLabel,
  entryFor,
  overallStatus,
  parseJsonBody,
  parseWith,
  statusEntry,
  worstKnown,
} from "./status-common.ts";

const incident = z.looseObject({
  id: z.string(),
  begin: z.string().nullish(),
  end: z.string().nullish(),
  external_desc: z.string().nullish(),
  severity: z.string().nullish(),
  status_impact: z.string().nullish(),
  affected_products: z.array(z.looseObject({ title: z.string(), id: z.string().nullish() })).default([]),
});

const incidents = z.array(incident);

/** The incidents.json entries we read. */
export type GoogleCloudIncidents = z.infer<typeof incidents>;

/** Map one Google Cloud incident's impact (or, failing that, severity) to the four values. */
export function mapGoogleImpact(statusImpact: string | null | undefined, severity: string | null | undefined): ServiceStatus {
  switch (statusImpact) {
    case "SERVICE_OUTAGE":
      return "down";
    case "SERVICE_DISRUPTION":
      return "degraded";
    case "SERVICE_INFORMATION":
      return "operational";
  }
  switch (severity) {
    case "high":
      return "down";
    case "medium":
    case "low":
      return "degraded";
    default:
      return "unknown";
  }
}

/** Google Cloud incidents.json → one service entry for the catalog's products. */
export const googleCloudSource = {
  id: "status-google-cloud",
  description: "Google Cloud Service Health incidents.json (public, no key); polled every 2 min",
  parse(body: string): GoogleCloudIncidents {
    return parseWith("status-google-cloud", incidents, parseJsonBody("status-google-cloud", body));
  },
  normalize(parsed: GoogleCloudIncidents, ctx: NormalizeContext & { meta: StatusMeta }): StatusEntry[] {
    const { meta, now } = ctx;
    const current = parsed.filter((i) => {
      if (!i.end) return true;
      const end = Date.parse(i.end);
      return Number.isNaN(end) ? false : end > now.getTime();
    });
    // Products to report: the catalog's list, else every product a current incident names (upstream order).
    const names: string[] = [];
    if (meta.components && meta.components.length > 0) names.push(...meta.components);
    else for (const i of current) for (const p of i.affected_products) if (!names.includes(p.title)) names.push(p.title);

    const components: StatusComponent[] = names.map((name) => {
      const n = name.toLowerCase();
      const hits = current
        .filter((i) => i.affected_products.some((p) => p.title.toLowerCase() === n))
        .map((i) => mapGoogleImpact(i.status_impact, i.severity));
      const status: ServiceStatus = hits.length === 0 ? "operational" : (worstKnown(hits) ?? "unknown");
      return { name: cleanLabel(name), status };
    });
    const page: ServiceStatus | undefined = components.length === 0 ? "operational" : undefined;
    return [entryFor(meta, overallStatus(page, components.map((c) => c.status)), components)];
  },
  row: statusEntry,
} satisfies Source<GoogleCloudIncidents, StatusEntry, StatusMeta>;
