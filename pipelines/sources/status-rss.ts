/**
 * RSS 2.0 / Atom incident feeds published by status pages (Azure status `…/en-us/status/feed/`, xAI
 * `status.x.ai/feed.xml`, DeepSeek `status.deepseek.com/history.rss` …). Public, no key; polled every 2
 * minutes. Parsed with fast-xml-parser.
 *
 * A feed lists incidents as prose, with no structured severity, so the mapping is deliberately narrow:
 * an item is a current incident unless its title or text says it is resolved/completed, and (when the
 * catalog sets `activeHours`) unless its date is older than that window. A current incident makes the
 * provider (or, with catalog keywords as components, each component it mentions) `degraded`; a feed never
 * reports `down`. No current incident → operational.
 */
import { XMLParser } from "fast-xml-parser";
import { z } from "zod";
import { expiryTime } from "../lib/time.ts";
import type { NormalizeContext, Source } from "../lib/types.ts";
import {
  type ServiceStatus,
  type StatusComponent,
  type StatusEntry,
  type StatusMeta,
  StatusParseError,
  cleanLabel,
  entryFor,
  overallStatus,
  statusEntry,
} from "./status-common.ts";

/** One feed item, flattened from RSS or Atom. */
export interface FeedItem {
  title: string;
  text: string;
  categories: string[];
  /** ISO date of the item (Atom `updated`/`published`, RSS `pubDate`), when readable. */
  date: string | null;
}

const xml = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@_",
  textNodeName: "#text",
  isArray: (name) => ["item", "entry", "category"].includes(name),
  processEntities: true,
  htmlEntities: true,
});

const textish = z.union([z.string(), z.number(), z.looseObject({ "#text": z.union([z.string(), z.number()]).optional() })]);

function text(value: unknown): string {
  const parsed = textish.safeParse(value);
  if (!parsed.success) return "";
  const v = parsed.data;
  if (typeof v === "string" || typeof v === "number") return String(v);
  return v["#text"] === undefined ? "" : String(v["#text"]);
}

function categoryText(value: unknown): string {
  if (value && typeof value === "object" && "@_term" in value) return String((value as Record<string, unknown>)["@_term"]);
  return text(value);
}

/**
 * An item's date, null when unreadable or absurd (pipelines/lib/time.ts; parse has no clock, so a future date is
 * kept here). An undated item and one dated ahead of the run both count as current, as before.
 */
function isoDate(value: string): string | null {
  return expiryTime(value);
}

const rssDoc = z.looseObject({
  rss: z.looseObject({ channel: z.looseObject({ item: z.array(z.looseObject({})).default([]) }) }),
});
const atomDoc = z.looseObject({ feed: z.looseObject({ entry: z.array(z.looseObject({})).default([]) }) });

const RESOLVED = /\b(resolved|completed|mitigated|post[- ]incident review)\b/i;

/** RSS/Atom status feed → one service entry. */
export const rssStatusSource = {
  id: "status-rss",
  description: "RSS 2.0 / Atom incident feed of a status page (public, no key); polled every 2 min",
  parse(body: string): FeedItem[] {
    let doc: unknown;
    try {
      doc = xml.parse(body, true);
    } catch (cause) {
      throw new StatusParseError(`status-rss: body is not well-formed XML (starts ${JSON.stringify(body.slice(0, 40))})`, { cause });
    }
    const rss = rssDoc.safeParse(doc);
    if (rss.success) {
      return rss.data.rss.channel.item.map((it) => ({
        title: text(it["title"]),
        text: text(it["description"]),
        categories: Array.isArray(it["category"]) ? it["category"].map(categoryText) : [],
        date: isoDate(text(it["pubDate"])),
      }));
    }
    const atom = atomDoc.safeParse(doc);
    if (atom.success) {
      return atom.data.feed.entry.map((e) => ({
        title: text(e["title"]),
        text: text(e["content"]) || text(e["summary"]),
        categories: Array.isArray(e["category"]) ? e["category"].map(categoryText) : [],
        date: isoDate(text(e["updated"]) || text(e["published"])),
      }));
    }
    throw new StatusParseError(`status-rss: XML is neither RSS 2.0 (rss/channel) nor Atom (feed)`);
  },
  normalize(parsed: FeedItem[], ctx: NormalizeContext & { meta: StatusMeta }): StatusEntry[] {
    const { meta, now } = ctx;
    const current = parsed.filter((item) => {
      if (RESOLVED.test(item.title) || RESOLVED.test(item.text)) return false;
      if (meta.activeHours === undefined || item.date === null) return true;
      const ageMs = now.getTime() - Date.parse(item.date);
      return ageMs <= meta.activeHours * 3_600_000;
    });
    const haystacks = current.map((i) => [i.title, i.text, ...i.categories].join("\n").toLowerCase());
    const keywords = meta.components ?? [];
    const components: StatusComponent[] = keywords.map((k) => ({
      name: cleanLabel(k),
      status: haystacks.some((h) => h.includes(k.toLowerCase())) ? "degraded" : "operational",
    }));
    const page: ServiceStatus | undefined = keywords.length > 0 ? undefined : current.length > 0 ? "degraded" : "operational";
    return [entryFor(meta, overallStatus(page, components.map((c) => c.status)), components)];
  },
  row: statusEntry,
} satisfies Source<FeedItem[], StatusEntry, StatusMeta>;
