/**
 * The /docs page: the endpoint reference as one small HTML document, no framework, no script, no inline
 * style; its own Content-Security-Policy lets it load only its stylesheet (/docs.css) from the same origin.
 * Every text from the registry is escaped.
 */
import { escapeUTF8 } from "entities";
import type { RouteDef } from "../registry/types.ts";
import { buildReference, type ReferenceEndpoint, type ReferenceInput } from "./reference.ts";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyRoute = RouteDef<any, any, any>;

/** Text safe in HTML content and in quoted attribute values (& < > " ' escaped, the rest kept as UTF-8). */
export function escapeHtml(text: string): string {
  return escapeUTF8(text);
}

/** The whole page for `routes`; links are paths on this host. */
export function renderReferenceHtml(routes: readonly AnyRoute[]): string {
  const sections = buildReference(routes);
  const total = sections.reduce((n, s) => n + s.endpoints.length, 0);
  const out: string[] = [
    "<!doctype html>",
    '<html lang="en">',
    "<head>",
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'self'; base-uri 'none'; form-action 'none'">`,
    '<link rel="stylesheet" href="/docs.css">',
    "<title>agentfeed endpoints</title>",
    "</head>",
    "<body>",
    "<header>",
    "<h1>agentfeed endpoints</h1>",
    `<p>${total} endpoints, generated from the route registry. Machine-readable: <a href="/api/meta">/api/meta</a> (with live freshness), <a href="/openapi.json">/openapi.json</a>, <a href="/llms.txt">/llms.txt</a>.</p>`,
    '<p>Every success is <code>{ "ok": true, … }</code>; every error is <code>{ "ok": false, "error": "&lt;code&gt;", "message": "…" }</code> with a 4xx.</p>',
    "</header>",
    "<nav>",
    "<h2>Contents</h2>",
    "<table>",
    "<thead><tr><th>Method</th><th>Path</th><th>Tier</th><th>Summary</th></tr></thead>",
    "<tbody>",
    ...sections.flatMap((s) =>
      s.endpoints.map(
        (e) =>
          `<tr><td>${escapeHtml(e.method)}</td><td><a href="#${escapeHtml(e.anchor)}"><code>${escapeHtml(e.path)}</code></a></td><td>${escapeHtml(s.tier)}</td><td>${escapeHtml(e.summary)}</td></tr>`,
      ),
    ),
    "</tbody>",
    "</table>",
    "</nav>",
    "<main>",
  ];
  for (const section of sections) {
    out.push(`<section id="tier-${escapeHtml(section.tier)}">`, `<h2>${escapeHtml(section.title)}</h2>`);
    if (section.blurb) out.push(`<p>${escapeHtml(section.blurb)}</p>`);
    for (const e of section.endpoints) out.push(...endpointBlock(e));
    out.push("</section>");
  }
  out.push("</main>", "</body>", "</html>");
  return out.join("\n") + "\n";
}

function endpointBlock(e: ReferenceEndpoint): string[] {
  const lines = [
    `<article id="${escapeHtml(e.anchor)}">`,
    `<h3><code>${escapeHtml(e.method)} ${escapeHtml(e.path)}</code></h3>`,
    `<p>${escapeHtml(e.summary)}</p>`,
  ];
  if (e.description) lines.push(`<p>${escapeHtml(e.description)}</p>`);
  const facts = [`Tier: ${escapeHtml(e.tier)}`, `Response: <code>${escapeHtml(e.contentType)}</code>`];
  if (e.costCredits !== null) facts.push(`Cost: ${e.costCredits} credit${e.costCredits === 1 ? "" : "s"}`);
  const items = [facts.join(" · ")];
  if (e.snapshots.length > 0) items.push(`Snapshots read: ${e.snapshots.map((t) => `<code>${escapeHtml(t)}</code>`).join(", ")}`);
  if (e.freshness) items.push(`Refresh: ${escapeHtml(e.freshness.cadence)} (freshness SLA ${e.freshness.slaSeconds} s)`);
  if (e.example) {
    const example = escapeHtml(e.example);
    items.push(e.method === "GET" ? `Example: <a href="${example}"><code>${example}</code></a>` : `Example: <code>${example}</code>`);
  }
  lines.push("<ul>", ...items.map((i) => `<li>${i}</li>`), "</ul>");
  if (e.inputs.length > 0) lines.push(...inputTable(e.inputs));
  lines.push("</article>");
  return lines;
}

function inputTable(inputs: ReferenceInput[]): string[] {
  return [
    "<table>",
    "<thead><tr><th>Name</th><th>In</th><th>Type</th><th>Required</th><th>Constraints</th><th>Description</th></tr></thead>",
    "<tbody>",
    ...inputs.map(
      (i) =>
        `<tr><td><code>${escapeHtml(i.name)}</code></td><td>${i.in}</td><td>${escapeHtml(i.type)}</td><td>${i.required ? "yes" : "no"}</td><td>${escapeHtml(i.constraints)}</td><td>${escapeHtml(i.description)}</td></tr>`,
    ),
    "</tbody>",
    "</table>",
  ];
}
