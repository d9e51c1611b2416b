/**
 * /llms.txt in the llmstxt.org format: `# name`, a `> summary` line, a short paragraph, then `## section`
 * lists of `- [title](url): description` built from the registry. Routes with path parameters, the paid
 * tiers and the machine-readable documents go under `## Optional`, which an agent may skip.
 */
import type { RouteDef } from "../registry/types.ts";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyRoute = RouteDef<any, any, any>;

const SECTION_TITLES: Record<string, string> = {
  discovery: "Discovery",
  free: "Free data",
  preview: "Free previews",
  payment: "Payments",
  premium: "Premium (credits)",
};

function line(baseUrl: string, r: AnyRoute): string {
  const title = `${r.method} ${r.path}`;
  const url = `${baseUrl}${r.path.replace(/:([A-Za-z_]\w*)/g, "{$1}")}`;
  return `- [${title}](${url}): ${r.summary.replace(/\s+/g, " ").trim()}`;
}

/** Render llms.txt for `routes` served at `baseUrl`. */
export function buildLlmsTxt(routes: readonly AnyRoute[], baseUrl: string): string {
  const main = new Map<string, string[]>();
  const optional: string[] = [];
  for (const r of routes) {
    const optionalRoute = r.path.includes(":") || r.tier === "premium" || r.tier === "payment";
    if (optionalRoute) {
      optional.push(line(baseUrl, r));
      continue;
    }
    const title = SECTION_TITLES[r.tier] ?? r.tier;
    main.set(title, [...(main.get(title) ?? []), line(baseUrl, r)]);
  }
  const out = [
    "# agentfeed",
    "",
    "> Open AI-ecosystem data for agents: news, provider status, model prices, benchmarks, agent, embedding and vector-database catalogs, and dated history, served as JSON from snapshots written by scheduled pipelines.",
    "",
    `Free routes need no credential, send CORS headers, and are limited per client IP (see RateLimit-* headers). Every response carries an ETag; send If-None-Match to get a 304. Errors are JSON: { "ok": false, "error": "<code>", "message": "..." }. The full catalog with parameters and freshness is ${baseUrl}/api/meta.`,
    "",
  ];
  for (const [title, lines] of main) out.push(`## ${title}`, "", ...lines, "");
  out.push("## Optional", "", ...optional);
  out.push(`- [OpenAPI 3.1 document](${baseUrl}/openapi.json): machine-readable description of every route`);
  return out.join("\n") + "\n";
}
