/** GET /docs: the human-readable endpoint reference, generated from the registry like /api/meta and /openapi.json. */
import { z } from "zod";
import { defineRoute } from "../registry/define.ts";
import { renderReferenceHtml } from "../docs/reference-html.ts";

const HTML = "text/html; charset=utf-8";

/** The /docs page. */
export const docsPageRoutes = [
  defineRoute({
    method: "GET",
    path: "/docs",
    tier: "discovery",
    summary: "This service's endpoint reference as an HTML page, generated from the route registry.",
    description:
      "Same content as api/ENDPOINTS.md in the repository: every route with its tier, parameters, cost, snapshots and refresh. No script, no external resources.",
    tags: ["discovery"],
    contentType: HTML,
    response: z.string().meta({ description: "An HTML document." }),
    render: (ctx) => ({ contentType: HTML, body: renderReferenceHtml(ctx.routes ?? []) }),
  }),
];
