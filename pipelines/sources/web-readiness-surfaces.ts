/**
 * What counts as each agent-facing surface of a site, judged from a fetched body (pure). Tolerant: a surface is
 * `present` only when the body has the shape its format asks for; an HTML page served with 200 for any path
 * (a soft 404) is not a surface.
 */

/** The paths the crawl fetches on each domain, after robots.txt. */
export const SURFACE_PATHS = {
  llmsTxt: "/llms.txt",
  aiTxt: "/ai.txt",
  agentJson: "/.well-known/agent.json",
  openapi: "/openapi.json",
  x402: "/.well-known/x402",
} as const;
export type SurfaceName = keyof typeof SURFACE_PATHS;

/** Bodies larger than this are read no further (the surface then counts as unknown). */
export const SURFACE_MAX_BYTES = 1024 * 1024;

/** Whether a text body looks like an HTML page rather than a text file. */
function looksHtml(body: string): boolean {
  return /^\s*<(!doctype|html|head|body)\b/i.test(body);
}

function jsonObject(body: string): Record<string, unknown> | undefined {
  try {
    const v: unknown = JSON.parse(body);
    return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Whether a 200 body is the named surface. */
export function isSurface(name: SurfaceName, body: string): boolean {
  switch (name) {
    case "llmsTxt":
      // llmstxt.org: a markdown file whose first content is an H1 with the site's name.
      return !looksHtml(body) && /^\s*# \S/.test(body);
    case "aiTxt":
      // ai.txt (Spawning): robots.txt-like lines; any non-empty non-HTML text with a field line counts.
      return !looksHtml(body) && /^\s*[A-Za-z-]+\s*:/m.test(body);
    case "agentJson": {
      const o = jsonObject(body);
      return o !== undefined && typeof o.name === "string" && o.name.trim() !== "";
    }
    case "openapi": {
      const o = jsonObject(body);
      return o !== undefined && (typeof o.openapi === "string" || typeof o.swagger === "string");
    }
    case "x402": {
      const o = jsonObject(body);
      return o !== undefined && typeof o.x402Version === "number" && (Array.isArray(o.items) || Array.isArray(o.resources));
    }
  }
}

/** UTF-8 size of a body, in bytes. */
export function utf8Bytes(body: string): number {
  return Buffer.byteLength(body, "utf8");
}
