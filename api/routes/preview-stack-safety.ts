/**
 * GET /api/preview/stack-safety-verdict: the free cut of /api/premium/stack-safety-verdict — the gate and its
 * counts for at most 3 packages, no CVE evidence — limited per client per UTC day (api/previews/). The app counts
 * the call and wraps these fields; this file only picks them from the answer the premium route computes.
 */
import { z } from "zod";
import { defineRoute } from "../registry/define.ts";
import type { RenderContext } from "../registry/types.ts";
import { PREVIEWS } from "../previews/catalog.ts";
import { previewResponse } from "../previews/response.ts";
import { renderStackSafety, stackSafetyQuery, type PackageSpec } from "./premium-security.ts";

/** Packages one preview call may list. */
export const PREVIEW_MAX_PACKAGES = 3;

/** Query of GET /api/preview/stack-safety-verdict: packages, at most 3. */
export const PreviewStackSafetyQuery = stackSafetyQuery(PREVIEW_MAX_PACKAGES);

/** The preview's own fields; the app adds ok, preview, rate_limit and upgrade. */
export interface PreviewStackSafetyFields extends Record<string, unknown> {
  gate: "GO" | "HOLD" | "BLOCK";
  counts: { block: number; hold: number; pass: number; unknown: number };
  capturedAt: string;
}

/** The premium answer's gate and counts. */
export function renderPreviewStackSafety(ctx: RenderContext, query: { packages: PackageSpec[] }): PreviewStackSafetyFields {
  const full = renderStackSafety(ctx, query);
  return { gate: full.gate, counts: full.counts, capturedAt: full.capturedAt };
}

const spec = PREVIEWS["/api/preview/stack-safety-verdict"];

/** The stack-safety preview route. */
export const previewStackSafetyRoutes = [
  defineRoute({
    method: "GET",
    path: spec.route,
    tier: "preview",
    preview: "/api/preview/stack-safety-verdict",
    summary: `Free preview of ${spec.premiumEndpoint}: the gate (GO, HOLD or BLOCK) for up to ${PREVIEW_MAX_PACKAGES} packages; ${spec.limit} calls per IP per UTC day.`,
    description: [
      `The gate and the per-verdict counts of ${spec.premiumEndpoint}, judged the same way, for at most ${PREVIEW_MAX_PACKAGES} name@version.`,
      "The premium endpoint keeps each package's verdict, the matched CVEs with KEV membership, exploitation, affected ranges and fixed versions, the reasons, up to 10 packages and the signed receipt.",
      `Limited to ${spec.limit} calls per client per UTC day, counted in the state database so every server process shares the count. Over the limit: 429 preview_limit_reached with Retry-After until the next UTC midnight and where to buy credits.`,
    ].join(" "),
    tags: ["preview", "security"],
    query: PreviewStackSafetyQuery,
    response: previewResponse({
      gate: z.enum(["GO", "HOLD", "BLOCK"]),
      counts: z.strictObject({ block: z.int(), hold: z.int(), pass: z.int(), unknown: z.int() }),
      capturedAt: z.string().meta({ description: "When the advisory snapshot was gathered." }),
    }),
    snapshots: ["security-advisories"],
    errors: { 429: "preview_limit_reached: the daily preview quota of this client is used (Retry-After: seconds to the next UTC midnight)" },
    example: "/api/preview/stack-safety-verdict?packages=pypi:langflow@1.2.0,npm:express@5.1.0",
    render: (ctx, { query }) => renderPreviewStackSafety(ctx, query),
  }),
];
