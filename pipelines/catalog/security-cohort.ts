/**
 * The security verdicts' curated cohort and the protocols the drift verdict tracks.
 *
 * Cohort: 36 packages an AI-agent stack commonly pins, chosen by hand on 2026-11-24 — the provider SDKs and agent
 * frameworks of both ecosystems, the web, HTTP and data libraries under them (taken from the top of the npm and
 * PyPI download rankings), and every npm or PyPI package the CISA KEV catalog names (jQuery, systeminformation,
 * mongo-express, React Server Components, Langflow), so exploited vulnerabilities are in reach of the verdicts.
 * For each, the `security-advisories` feed reads its registry metadata and asks OSV for its advisories. A package
 * outside the cohort is judged only when an OSV malicious-package advisory names it.
 *
 * Protocols: the specifications whose new releases the stack-drift verdict reports, each followed through its
 * repository's releases on the code host (checked 2026-11-24).
 */
import { z } from "zod";
import { CatalogError } from "./curated-fields.ts";
import { SECURITY_ECOSYSTEMS, TRACKED_PROTOCOLS } from "../contract/snapshots/security-advisories.ts";

export { SECURITY_COHORT_SOURCE } from "../contract/snapshots/security-advisories.ts";

/** When the lists were last checked. */
export const SECURITY_COHORT_CHECKED = "2026-11-24";

/** What a cohort package is in a stack. */
export const COHORT_CATEGORIES = ["llm-sdk", "agent-framework", "protocol-sdk", "ml-runtime", "ml-serving", "web-framework", "http-client", "data-validation", "templating", "imaging", "utility", "frontend", "system", "admin-ui", "auth"] as const;

export const cohortEntrySchema = z.strictObject({
  ecosystem: z.enum(SECURITY_ECOSYSTEMS),
  name: z.string().min(1).max(214),
  category: z.enum(COHORT_CATEGORIES),
});
export type CohortEntry = z.infer<typeof cohortEntrySchema>;

const RAW: [(typeof SECURITY_ECOSYSTEMS)[number], string, (typeof COHORT_CATEGORIES)[number]][] = [
  ["npm", "openai", "llm-sdk"],
  ["npm", "@anthropic-ai/sdk", "llm-sdk"],
  ["npm", "@modelcontextprotocol/sdk", "protocol-sdk"],
  ["npm", "ai", "agent-framework"],
  ["npm", "langchain", "agent-framework"],
  ["npm", "express", "web-framework"],
  ["npm", "react-server-dom-webpack", "web-framework"],
  ["npm", "axios", "http-client"],
  ["npm", "undici", "http-client"],
  ["npm", "ws", "http-client"],
  ["npm", "zod", "data-validation"],
  ["npm", "jsonwebtoken", "auth"],
  ["npm", "lodash", "utility"],
  ["npm", "jquery", "frontend"],
  ["npm", "systeminformation", "system"],
  ["npm", "mongo-express", "admin-ui"],
  ["PyPI", "openai", "llm-sdk"],
  ["PyPI", "anthropic", "llm-sdk"],
  ["PyPI", "mcp", "protocol-sdk"],
  ["PyPI", "langchain", "agent-framework"],
  ["PyPI", "llama-index", "agent-framework"],
  ["PyPI", "langflow", "agent-framework"],
  ["PyPI", "transformers", "ml-runtime"],
  ["PyPI", "torch", "ml-runtime"],
  ["PyPI", "vllm", "ml-serving"],
  ["PyPI", "ray", "ml-serving"],
  ["PyPI", "mlflow", "ml-serving"],
  ["PyPI", "gradio", "ml-serving"],
  ["PyPI", "fastapi", "web-framework"],
  ["PyPI", "aiohttp", "http-client"],
  ["PyPI", "requests", "http-client"],
  ["PyPI", "urllib3", "http-client"],
  ["PyPI", "pydantic", "data-validation"],
  ["PyPI", "jinja2", "templating"],
  ["PyPI", "pillow", "imaging"],
  ["PyPI", "numpy", "utility"],
];

/** The cohort, checked once at load: no package twice in an ecosystem. */
export const SECURITY_COHORT: readonly CohortEntry[] = (() => {
  const entries = RAW.map(([ecosystem, name, category]) => cohortEntrySchema.parse({ ecosystem, name, category }));
  const seen = new Set<string>();
  for (const e of entries) {
    const key = `${e.ecosystem}:${e.name}`;
    if (seen.has(key)) throw new CatalogError(`security cohort: ${key} listed twice`);
    seen.add(key);
  }
  return entries;
})();

/** One tracked protocol specification. */
export interface ProtocolEntry {
  id: (typeof TRACKED_PROTOCOLS)[number];
  name: string;
  /** owner/name of the repository whose releases are the specification's versions. */
  repository: string;
}

export const TRACKED_PROTOCOL_REPOS: readonly ProtocolEntry[] = [
  { id: "mcp", name: "Model Context Protocol", repository: "modelcontextprotocol/modelcontextprotocol" },
  { id: "x402", name: "x402 payments protocol", repository: "coinbase/x402" },
  { id: "openapi", name: "OpenAPI Specification", repository: "OAI/OpenAPI-Specification" },
];
