/** GET /docs (and /docs.css): the human-readable endpoint reference, generated from the registry like /api/meta and /openapi.json. */
import { z } from "zod";
import { defineRoute } from "../registry/define.ts";
import { REFERENCE_CSS } from "../docs/reference-css.ts";
import { renderReferenceHtml } from "../docs/reference-html.ts";

const HTML = "text/html; charset=utf-8";
const CSS = "text/css; charset=utf-8";

/** The /docs page and its stylesheet. */
export const docsPageRoutes = [
  defineRoute({
    method: "GET",
    path: "/docs",
    tier: "discovery",
    summary: "This service's endpoint reference as an HTML page, generated from the route registry.",
    description:
      "Same content as api/ENDPOINTS.md in the repository: every route with its tier, parameters, cost, snapshots and refresh. No script; its only resource is the same-origin stylesheet /docs.css.",
    tags: ["discovery"],
    contentType: HTML,
    response: z.string().meta({ description: "An HTML document." }),
    render: (ctx) => ({ contentType: HTML, body: renderReferenceHtml(ctx.routes ?? []) }),
  }),
  defineRoute({
    method: "GET",
    path: "/docs.css",
    tier: "discovery",
    summary: "The stylesheet of the /docs page.",
    tags: ["discovery"],
    contentType: CSS,
    response: z.string().meta({ description: "A CSS stylesheet." }),
    render: () => ({ contentType: CSS, body: REFERENCE_CSS }),
  }),
];
