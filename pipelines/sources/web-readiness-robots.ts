/**
 * robots.txt evaluation per RFC 9309 for the known AI crawlers (pipelines/catalog/web-domains.ts lists them).
 *
 * Matching (wildcards `*`, end anchor `$`, percent-encoding, the longest match wins, Allow wins a tie of equal
 * length) is done by `robots-parser` (npm). Two things it gets wrong are fixed here:
 * - a group of user-agent lines with no rule at all (at the end of the file) is dropped by the library, which then
 *   falls back to the `*` group; RFC 9309 §2.2.1 makes such a group "allow everything" for the agents it names;
 * - a leading byte-order mark hides the first `User-agent` line from the library; it is stripped first.
 * Group membership (which groups name a bot, merged per §2.2.1) is read by the small scanner below, so the
 * classification never reads the library's private fields. Bodies are capped at 500 KiB (the minimum §2.5 asks
 * crawlers to parse).
 */
import robotsParserModule from "robots-parser";

/** The library is CommonJS (`module.exports = fn`) with an ES-style typing; under NodeNext its default import is the function at run time. */
const robotsParser = robotsParserModule as unknown as (typeof robotsParserModule)["default"];

/** What the crawl learned about one bot's access to a site. */
export type BotAccess = "allowed" | "blocked" | "partial" | "unknown";

/** The robots.txt fetch outcome of a site. */
export type RobotsStatus = "present" | "missing" | "unreachable";

/** RFC 9309 §2.5: parse at least 500 KiB. */
export const ROBOTS_MAX_BYTES = 500 * 1024;

/** One group: the agents it names (lower-case product tokens) and its rules. */
interface Group {
  agents: string[];
  rules: { allow: boolean; pattern: string }[];
}

/** Lower-case product token of a `User-agent` value (the part before any `/version`). */
function token(value: string): string {
  return value.split("/")[0]!.trim().toLowerCase();
}

/** The groups of a robots.txt, in order: consecutive `User-agent` lines open one group, rules fill it. */
export function scanGroups(body: string): Group[] {
  const groups: Group[] = [];
  let current: Group | undefined;
  let inAgents = false;
  for (const raw of body.split(/\r\n|\r|\n/)) {
    const line = raw.replace(/#.*$/, "").trim();
    const colon = line.indexOf(":");
    if (colon < 0) continue;
    const key = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (key === "user-agent") {
      if (!inAgents) {
        current = { agents: [], rules: [] };
        groups.push(current);
      }
      if (value) current!.agents.push(token(value));
      inAgents = true;
    } else if (key === "allow" || key === "disallow") {
      if (current && value) current.rules.push({ allow: key === "allow", pattern: value });
      inAgents = false;
    } else if (key !== "sitemap") {
      inAgents = false;
    }
  }
  return groups;
}

/** A parsed robots.txt that answers per bot. */
export interface RobotsPolicy {
  /** Access of one bot (its product token) per the classification of classifyBot. */
  access(botToken: string): Exclude<BotAccess, "unknown">;
}

/**
 * Parse a robots.txt body fetched from `origin` (https://host). Classification of a bot:
 * - `blocked`: `/` is disallowed and its group opens no path with an Allow rule;
 * - `partial`: `/` is disallowed but some Allow rule opens paths, or `/` is allowed while a group naming the bot
 *   disallows some path (a restriction aimed at it);
 * - `allowed`: `/` is allowed otherwise (the `*` group's housekeeping rules such as `Disallow: /ads/` do not
 *   make every crawler partial).
 */
export function parseRobots(origin: string, rawBody: string): RobotsPolicy {
  const body = (rawBody.length > ROBOTS_MAX_BYTES ? rawBody.slice(0, ROBOTS_MAX_BYTES) : rawBody).replace(/^\uFEFF/, "");
  const robots = robotsParser(`${origin}/robots.txt`, body);
  const groups = scanGroups(body);
  const root = `${origin}/`;
  return {
    access(botToken) {
      const name = token(botToken);
      const named = groups.filter((g) => g.agents.includes(name));
      if (named.length > 0 && named.every((g) => g.rules.length === 0)) return "allowed";
      const effective = named.length > 0 ? named : groups.filter((g) => g.agents.includes("*"));
      const rules = effective.flatMap((g) => g.rules);
      const rootAllowed = robots.isAllowed(root, name) !== false;
      if (!rootAllowed) return rules.some((r) => r.allow) ? "partial" : "blocked";
      if (named.length > 0 && rules.some((r) => !r.allow)) return "partial";
      return "allowed";
    },
  };
}

/** Whether `path` may be fetched by `agentToken` under this robots.txt body (used by the crawler for itself). */
export function mayFetch(origin: string, rawBody: string, agentToken: string, path: string): boolean {
  const body = rawBody.replace(/^\uFEFF/, "");
  const name = token(agentToken);
  const named = scanGroups(body).filter((g) => g.agents.includes(name));
  if (named.length > 0 && named.every((g) => g.rules.length === 0)) return true;
  return robotsParser(`${origin}/robots.txt`, body).isAllowed(`${origin}${path}`, name) !== false;
}
