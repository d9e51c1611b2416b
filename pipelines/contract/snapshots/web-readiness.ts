/** The `web-readiness` snapshot: what each curated domain publishes for AI agents and crawlers, from the weekly crawl. */
import { z } from "zod";
import type { SnapshotType } from "../snapshot-type.ts";

/** Where the crawled domain list comes from (pipelines/catalog/web-domains.ts names it per entry). */
export const WEB_DOMAINS_SOURCE = "https://tranco-list.eu/ (hand-filtered into sectors, 2026-11-23)";

/**
 * The crawlers that fetch a page for a user at the moment an agent asks (not for training or an index); the
 * agent-ready `crawlable` surface requires none of them blocked. The catalog checks its `user-fetch` bots equal it.
 */
export const USER_FETCH_BOTS = ["ChatGPT-User", "Claude-User", "cohere-ai", "MistralAI-User"] as const;

/** A bot's access to a site as its robots.txt states it; `unknown` when robots.txt could not be read. */
export const BOT_ACCESS = ["allowed", "blocked", "partial", "unknown"] as const;
/** robots.txt fetch outcome: `missing` is a 4xx (no policy: everything allowed, RFC 9309 §2.3.1.3). */
export const ROBOTS_STATUSES = ["present", "missing", "unreachable"] as const;
/** A surface (llms.txt, ai.txt …): found, checked and absent, or not known (fetch failed or our robots.txt group forbids it). */
export const SURFACE_STATUSES = ["present", "absent", "unknown"] as const;

const surface = z.enum(SURFACE_STATUSES);

/** One crawled domain. */
export const webReadinessDomainSchema = z.strictObject({
  domain: z.string().min(1).max(253),
  sector: z.string().min(1).max(40),
  robotsStatus: z.enum(ROBOTS_STATUSES),
  /** Access per AI crawler product token (pipelines/catalog/web-domains.ts AI_BOTS), in catalog order. */
  bots: z.record(z.string(), z.enum(BOT_ACCESS)),
  llmsTxt: surface,
  /** Size of /llms.txt in bytes (UTF-8) when present. */
  llmsTxtBytes: z.int().nonnegative().nullable(),
  aiTxt: surface,
  aiTxtBytes: z.int().nonnegative().nullable(),
  /** /.well-known/agent.json: a JSON agent card with a name. */
  agentJson: surface,
  /** /openapi.json: a JSON document with an `openapi` or `swagger` version string. */
  openapi: surface,
  /** /.well-known/x402: an x402 discovery document (x402Version and an items or resources array). */
  x402: surface,
  /** The payee wallets (checksummed) and CAIP-2 networks that document, and the 402 challenges of up to three of the site's own resources it lists, name; empty without one. */
  x402Payees: z
    .array(
      z.strictObject({
        payTo: z.string().regex(/^0x[0-9a-fA-F]{40}$/),
        network: z.string().min(1).max(40),
        /** Where the crawl read it: the discovery document, a 402 challenge of one of the site's resources, or both. */
        source: z.enum(["discovery", "challenge", "both"]).default("discovery"),
      }),
    )
    .max(20)
    .default([]),
  /**
   * What the x402 discovery document offers: resources with a positive price (paid) and without (free), and
   * whether it lists resources on other sites (federated); null without a document. Only the document's first
   * page is read: `total` is the resource count it states (pagination.total, null when absent), and `complete`
   * is false when that total (or a list longer than 500) exceeds what paid + free counted, which is then a lower
   * bound; both null in snapshots written before they were recorded.
   */
  x402Resources: z
    .strictObject({
      paid: z.int().nonnegative(),
      free: z.int().nonnegative(),
      federated: z.boolean(),
      total: z.int().nonnegative().nullable().default(null),
      complete: z.boolean().nullable().default(null),
    })
    .nullable()
    .default(null),
  /**
   * /.well-known/agent-fair-trade.json (a valid AFTA manifest), checked only on domains with an x402 discovery
   * document: present, absent (missing or not a valid manifest), unknown (not checked, or the fetch failed).
   */
  fairTrade: surface.default("unknown"),
});
export type WebReadinessDomain = z.infer<typeof webReadinessDomainSchema>;

/** The `web-readiness` snapshot body: domains sorted by domain. */
export const webReadinessSnapshotSchema = z.strictObject({ domains: z.array(webReadinessDomainSchema) });
export type WebReadinessSnapshot = z.infer<typeof webReadinessSnapshotSchema>;

/** The `web-readiness` snapshot type: weekly, SLA 8 days. */
export const webReadinessSnapshotType = {
  type: "web-readiness",
  title: "AI crawler access and agent-ready surfaces of curated domains (weekly crawl)",
  cron: "13 4 * * 1",
  cadence: "weekly",
  slaSeconds: 8 * 24 * 60 * 60,
  schema: webReadinessSnapshotSchema,
} satisfies SnapshotType<WebReadinessSnapshot>;
