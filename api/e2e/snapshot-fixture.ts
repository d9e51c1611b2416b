/**
 * Builds a throwaway SNAPSHOTS_DIR in the store format (manifest.json, <type>/latest.json and dated files,
 * keys sorted, 2-space indent) for the end-to-end tests. Bodies are small but shaped like the feeds' output.
 */
import { mkdtemp, mkdir, rename, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stableStringify } from "../../pipelines/contract/stable-stringify.ts";
import type { SnapshotMeta } from "../registry/types.ts";

/** One type to write: its dated bodies (the last date is also latest.json). */
export interface FixtureType {
  type: string;
  /** date → body, written as <type>/<date>.json; the latest date becomes latest.json. */
  dated: Record<string, unknown>;
  meta?: Partial<SnapshotMeta>;
}

/** A built fixture folder. */
export interface SnapshotFixture {
  dir: string;
  /** Add or replace a type, rewriting the manifest (as a pipeline run would). */
  write(type: FixtureType): Promise<void>;
  remove(): Promise<void>;
}

/** Status body shaped like pipelines/feeds/status.ts output. */
export const STATUS_BODY = {
  services: [
    {
      components: [
        { name: "API", status: "operational" },
        { name: "Console", status: "operational" },
      ],
      name: "Anthropic",
      provider: "anthropic",
      status: "operational",
      statusPageUrl: "https://status.anthropic.com",
    },
    {
      components: [{ name: "Chat Completions", status: "degraded" }],
      name: "OpenAI",
      provider: "openai",
      status: "degraded",
      statusPageUrl: "https://status.openai.com",
    },
  ],
};

/** News body shaped like pipelines/feeds/news.ts output (articles newest first, plus the source list). */
export function newsBody(count: number): { articles: unknown[]; sources: unknown[] } {
  return {
    articles: Array.from({ length: count }, (_, i) => ({
      categories: [i % 2 ? "research" : "company"],
      fetchedAt: "2025-01-15T09:00:00.000Z",
      id: (0xa000000000000000n + BigInt(i)).toString(16),
      publishedAt: new Date(Date.UTC(2025, 0, 15, 8, 59 - (i % 60))).toISOString(),
      snippet: `Summary ${i} of a model release, with benchmark numbers and a pricing note for the new tier.`,
      source: i % 2 ? "Research Blog" : "Tech Weekly",
      sourceDomain: i % 2 ? "research.example.org" : "techweekly.example.com",
      title: `Release note ${i}: a new model family`,
      url: `https://${i % 2 ? "research.example.org" : "techweekly.example.com"}/articles/${i}`,
    })),
    sources: [
      { categories: ["company"], homepage: "https://techweekly.example.com", id: "tech-weekly", name: "Tech Weekly", official: false },
      { categories: ["research"], homepage: "https://research.example.org", id: "research-blog", name: "Research Blog", official: true },
    ],
  };
}

function metaFor(type: string, date: string, rows: number, extra: Partial<SnapshotMeta> = {}): SnapshotMeta {
  const at = new Date().toISOString();
  return {
    cadence: "every 10 minutes",
    date,
    lastAttempt: at,
    lastChanged: at,
    lastError: null,
    lastSuccess: at,
    provenance: "replay",
    rows,
    slaSeconds: 3600,
    sources: [{ id: `${type}-source`, ok: true, rows }],
    type,
    ...extra,
  };
}

function rowsOf(body: unknown): number {
  if (body && typeof body === "object") {
    for (const v of Object.values(body)) if (Array.isArray(v)) return v.length;
  }
  return 1;
}

/** Create the folder with `types` written in. */
export async function createSnapshotFixture(types: FixtureType[]): Promise<SnapshotFixture> {
  const dir = await mkdtemp(join(tmpdir(), "agentfeed-e2e-"));
  const manifest: { version: 1; types: Record<string, SnapshotMeta> } = { version: 1, types: {} };
  const write = async (t: FixtureType) => {
    const dates = Object.keys(t.dated).sort();
    const last = dates[dates.length - 1];
    if (!last) throw new Error(`fixture type ${t.type} has no dated body`);
    await mkdir(join(dir, t.type), { recursive: true });
    for (const d of dates) await writeFile(join(dir, t.type, `${d}.json`), stableStringify(t.dated[d]));
    await writeFile(join(dir, t.type, "latest.json"), stableStringify(t.dated[last]));
    manifest.types[t.type] = metaFor(t.type, last, rowsOf(t.dated[last]), t.meta);
    // Atomic like the pipelines' writer: temp file, then rename.
    const tmp = join(dir, `.manifest.${process.pid}.${Date.now()}.tmp`);
    await writeFile(tmp, stableStringify(manifest));
    await rename(tmp, join(dir, "manifest.json"));
  };
  for (const t of types) await write(t);
  return { dir, write, remove: () => rm(dir, { recursive: true, force: true }) };
}
