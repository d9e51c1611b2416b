/**
 * Better Stack (formerly Better Uptime) hosted status pages: `GET <page>/index.json`, a public JSON:API
 * document (no key): `data.attributes.aggregate_state` for the page, `included[]` holding
 * `status_page_section` (groups), `status_page_resource` (the components) and `status_report` entries.
 * No documented rate limit; we poll every 2 minutes.
 *
 * Mapping — resource `status` and page `aggregate_state`: operational → operational; degraded →
 * degraded; downtime → down; maintenance → degraded; not_monitored and anything else → unknown.
 * Sections are containers and never become components; resources keep upstream order.
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

const included = z.looseObject({
  id: z.union([z.string(), z.number()]).optional(),
  type: z.string(),
  attributes: z.looseObject({}).optional(),
});

const resourceAttributes = z.looseObject({
  public_name: z.string(),
  status: z.string().nullish(),
});

const indexDoc = z.looseObject({
  data: z.looseObject({
    type: z.string().optional(),
    attributes: z.looseObject({ aggregate_state: z.string().nullish(), company_name: z.string().nullish() }),
  }),
  included: z.array(included).default([]),
});

/** The parts of index.json we read. */
export interface BetterStackIndex {
  aggregateState: string | null;
  resources: { name: string; status: string | null }[];
}

/** Map a Better Stack resource status or aggregate state to the four values. */
export function mapBetterStackState(value: string | null | undefined): ServiceStatus {
  switch (value) {
    case "operational":
      return "operational";
    case "degraded":
    case "maintenance":
      return "degraded";
    case "downtime":
      return "down";
    default:
      return "unknown";
  }
}

/** Better Stack index.json → one service entry. */
export const betterStackSource = {
  id: "status-betterstack",
  description: "Better Stack hosted status page /index.json (JSON:API, public, no key); polled every 2 min",
  parse(body: string): BetterStackIndex {
    const doc = parseWith("status-betterstack", indexDoc, parseJsonBody("status-betterstack", body));
    const resources: BetterStackIndex["resources"] = [];
    for (const item of doc.included) {
      if (item.type !== "status_page_resource") continue;
      const attrs = parseWith("status-betterstack", resourceAttributes, item.attributes ?? {});
      resources.push({ name: attrs.public_name, status: attrs.status ?? null });
    }
    return { aggregateState: doc.data.attributes.aggregate_state ?? null, resources };
  },
  normalize(parsed: BetterStackIndex, ctx: NormalizeContext & { meta: StatusMeta }): StatusEntry[] {
    const { meta } = ctx;
    const components = parsed.resources
      .map((r) => ({ name: cleanLabel(r.name), status: mapBetterStackState(r.status) }))
      .filter((c) => c.name !== "" && wanted(meta, c.name));
    const filtered = meta.components !== undefined && meta.components.length > 0;
    const page = !filtered && parsed.aggregateState !== null ? mapBetterStackState(parsed.aggregateState) : undefined;
    return [entryFor(meta, overallStatus(page, components.map((c) => c.status)), components)];
  },
  row: statusEntry,
} satisfies Source<BetterStackIndex, StatusEntry, StatusMeta>;
