/**
 * api/ENDPOINTS.md: the endpoint reference as GitHub markdown, written by `npm run docs` and kept equal to
 * the registry by a test. Deterministic: no timestamps, no host, paths only.
 */
import type { RouteDef } from "../registry/types.ts";
import { buildReference, type ReferenceEndpoint, type ReferenceInput } from "./reference.ts";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyRoute = RouteDef<any, any, any>;

/** Where `npm run docs` writes the markdown, relative to the repository root. */
export const ENDPOINTS_MD_PATH = "api/ENDPOINTS.md";

/** The whole markdown file for `routes`. */
export function renderReferenceMarkdown(routes: readonly AnyRoute[]): string {
  const sections = buildReference(routes);
  const total = sections.reduce((n, s) => n + s.endpoints.length, 0);
  const out: string[] = [
    "# agentfeed endpoints",
    "",
    "<!-- Generated from the route registry (api/routes/index.ts) by `npm run docs`. Do not edit by hand:",
    "     api/docs/reference-markdown.test.ts fails when this file differs from what the registry generates. -->",
    "",
    `${total} endpoints, generated from the route registry. The running service serves the same reference at`,
    "`GET /docs`, and machine-readable forms at `GET /api/meta` (with live freshness), `GET /openapi.json` and",
    "`GET /llms.txt`. Every success is `{ \"ok\": true, … }`; every error is",
    "`{ \"ok\": false, \"error\": \"<code>\", \"message\": \"…\" }` with a 4xx (a 5xx only for a real fault).",
    "",
    "| Method | Path | Tier | Summary |",
    "|---|---|---|---|",
    ...sections.flatMap((s) =>
      s.endpoints.map((e) => `| ${e.method} | [\`${code(e.path)}\`](#${e.anchor}) | ${s.tier} | ${cell(e.summary)} |`),
    ),
    "",
  ];
  for (const section of sections) {
    out.push(`## ${section.title}`, "");
    if (section.blurb) out.push(prose(section.blurb), "");
    for (const e of section.endpoints) out.push(...endpointBlock(e));
  }
  return out.join("\n").replace(/\n+$/, "\n");
}

function endpointBlock(e: ReferenceEndpoint): string[] {
  const lines = [`### ${e.method} ${e.path}`, "", prose(e.summary), ""];
  if (e.description) lines.push(prose(e.description), "");
  const facts = [`Tier: ${e.tier}`, `Response: \`${code(e.contentType)}\``];
  if (e.costCredits !== null) facts.push(`Cost: ${e.costCredits} credit${e.costCredits === 1 ? "" : "s"}`);
  lines.push(`- ${facts.join(" · ")}`);
  if (e.snapshots.length > 0) lines.push(`- Snapshots read: ${e.snapshots.map((t) => `\`${code(t)}\``).join(", ")}`);
  if (e.freshness) lines.push(`- Refresh: ${prose(e.freshness.cadence)} (freshness SLA ${e.freshness.slaSeconds} s)`);
  if (e.example) lines.push(`- Example: \`${code(e.example)}\``);
  lines.push("");
  if (e.inputs.length > 0) lines.push(...inputTable(e.inputs), "");
  return lines;
}

function inputTable(inputs: ReferenceInput[]): string[] {
  return [
    "| Name | In | Type | Required | Constraints | Description |",
    "|---|---|---|---|---|---|",
    ...inputs.map(
      (i) =>
        `| \`${code(i.name)}\` | ${i.in} | ${cell(i.type)} | ${i.required ? "yes" : "no"} | ${cell(i.constraints)} | ${cell(i.description)} |`,
    ),
  ];
}

/** Free text as a paragraph: "<" cannot open an HTML tag. */
function prose(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;");
}

/** Text safe inside a table cell: pipes escaped, no line breaks, markdown-active characters neutralised. */
function cell(text: string): string {
  return prose(text).replace(/\|/g, "\\|").replace(/\s+/g, " ").trim();
}

/** Text safe inside a code span (a backtick would end it). */
function code(text: string): string {
  return text.replace(/`/g, "'");
}
