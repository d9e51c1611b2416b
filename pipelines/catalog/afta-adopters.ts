/**
 * Sites said to publish the agent fair-trade (AFTA) manifest at `/.well-known/agent-fair-trade.json`. The list is
 * seeded by hand from the adopters' own public statements and grows by submission; being listed here claims
 * nothing: the `afta-adopters` feed fetches each manifest and reports what it finds.
 */
import { z } from "zod";
import { checkedDate, httpsUrl } from "./curated-fields.ts";

/** One listed site. */
export const aftaAdopterSchema = z.strictObject({
  /** Bare host name (no scheme, no path). */
  domain: z.string().regex(/^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/, "a lowercase host name"),
  /** Where the site says it adopted the standard. */
  claimed_at: httpsUrl,
  /** Date (YYYY-MM-DD) the entry was added. */
  listed: checkedDate,
});
export type AftaAdopter = z.infer<typeof aftaAdopterSchema>;

const catalogSchema = z
  .array(aftaAdopterSchema)
  .min(1)
  .refine((list) => new Set(list.map((a) => a.domain)).size === list.length, "adopter domains must be unique");

/** Every listed site, validated when the module loads. */
export const AFTA_ADOPTERS: AftaAdopter[] = catalogSchema.parse([
  { domain: "tensorfeed.ai", claimed_at: "https://tensorfeed.ai/agent-fair-trade", listed: "2026-11-22" },
  { domain: "terminalfeed.io", claimed_at: "https://terminalfeed.io/agent-fair-trade", listed: "2026-11-22" },
  { domain: "vr.org", claimed_at: "https://vr.org/agent-fair-trade", listed: "2026-11-22" },
]);

/** The manifest URL of a domain. */
export function manifestUrl(domain: string): string {
  return `https://${domain}/.well-known/agent-fair-trade.json`;
}
