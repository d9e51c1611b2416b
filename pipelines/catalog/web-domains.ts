/**
 * The web-readiness crawl's curated lists: the domains crawled each week, by sector, and the AI crawlers whose
 * access the robots.txt evaluation reports.
 *
 * Domains: 104 widely used sites, 13 per sector, chosen by hand on 2026-11-23 from each sector's best-known
 * public sites (source: the Tranco top-sites list, https://tranco-list.eu/, filtered by hand into sectors; AI labs
 * and developer platforms added as the sectors this service's users build on). Being listed claims nothing about
 * a site: the `web-readiness` feed fetches what each site publishes and reports it.
 *
 * AI crawlers: product tokens as their operators document them, cross-checked against the community list
 * https://github.com/ai-robots-txt/ai.robots.txt (robots.txt and robots.json), checked 2026-11-23.
 */
import { z } from "zod";
import { checkedDate, httpsUrl } from "./curated-fields.ts";
import { USER_FETCH_BOTS } from "../contract/snapshots/web-readiness.ts";

/** When both lists were last checked. */
export const WEB_DOMAINS_CHECKED = "2026-11-23";

export { WEB_DOMAINS_SOURCE } from "../contract/snapshots/web-readiness.ts";

/** The sectors of the domain list. */
export const WEB_SECTORS = ["ai-lab", "news-media", "developer-tools", "cloud-infra", "commerce", "finance-payments", "reference-education", "saas-productivity"] as const;
export type WebSector = (typeof WEB_SECTORS)[number];

const hostName = z.string().regex(/^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/, "a lowercase host name");

/** One crawled domain. */
export const webDomainSchema = z.strictObject({ domain: hostName, sector: z.enum(WEB_SECTORS) });
export type WebDomain = z.infer<typeof webDomainSchema>;

const RAW: [string, WebSector][] = [
  ["openai.com", "ai-lab"],
  ["anthropic.com", "ai-lab"],
  ["deepmind.google", "ai-lab"],
  ["mistral.ai", "ai-lab"],
  ["cohere.com", "ai-lab"],
  ["huggingface.co", "ai-lab"],
  ["stability.ai", "ai-lab"],
  ["perplexity.ai", "ai-lab"],
  ["x.ai", "ai-lab"],
  ["together.ai", "ai-lab"],
  ["groq.com", "ai-lab"],
  ["replicate.com", "ai-lab"],
  ["ai21.com", "ai-lab"],
  ["nytimes.com", "news-media"],
  ["theguardian.com", "news-media"],
  ["cnn.com", "news-media"],
  ["bbc.co.uk", "news-media"],
  ["reuters.com", "news-media"],
  ["washingtonpost.com", "news-media"],
  ["bloomberg.com", "news-media"],
  ["ft.com", "news-media"],
  ["wsj.com", "news-media"],
  ["apnews.com", "news-media"],
  ["theverge.com", "news-media"],
  ["techcrunch.com", "news-media"],
  ["wired.com", "news-media"],
  ["github.com", "developer-tools"],
  ["gitlab.com", "developer-tools"],
  ["stackoverflow.com", "developer-tools"],
  ["npmjs.com", "developer-tools"],
  ["pypi.org", "developer-tools"],
  ["vercel.com", "developer-tools"],
  ["netlify.com", "developer-tools"],
  ["docker.com", "developer-tools"],
  ["jetbrains.com", "developer-tools"],
  ["postman.com", "developer-tools"],
  ["readthedocs.io", "developer-tools"],
  ["sentry.io", "developer-tools"],
  ["supabase.com", "developer-tools"],
  ["aws.amazon.com", "cloud-infra"],
  ["cloud.google.com", "cloud-infra"],
  ["azure.microsoft.com", "cloud-infra"],
  ["cloudflare.com", "cloud-infra"],
  ["digitalocean.com", "cloud-infra"],
  ["fastly.com", "cloud-infra"],
  ["akamai.com", "cloud-infra"],
  ["heroku.com", "cloud-infra"],
  ["fly.io", "cloud-infra"],
  ["render.com", "cloud-infra"],
  ["linode.com", "cloud-infra"],
  ["vultr.com", "cloud-infra"],
  ["hetzner.com", "cloud-infra"],
  ["amazon.com", "commerce"],
  ["ebay.com", "commerce"],
  ["shopify.com", "commerce"],
  ["etsy.com", "commerce"],
  ["walmart.com", "commerce"],
  ["target.com", "commerce"],
  ["bestbuy.com", "commerce"],
  ["ikea.com", "commerce"],
  ["zalando.com", "commerce"],
  ["aliexpress.com", "commerce"],
  ["wayfair.com", "commerce"],
  ["rakuten.com", "commerce"],
  ["mercadolibre.com", "commerce"],
  ["stripe.com", "finance-payments"],
  ["paypal.com", "finance-payments"],
  ["coinbase.com", "finance-payments"],
  ["wise.com", "finance-payments"],
  ["revolut.com", "finance-payments"],
  ["adyen.com", "finance-payments"],
  ["squareup.com", "finance-payments"],
  ["visa.com", "finance-payments"],
  ["mastercard.com", "finance-payments"],
  ["klarna.com", "finance-payments"],
  ["plaid.com", "finance-payments"],
  ["circle.com", "finance-payments"],
  ["base.org", "finance-payments"],
  ["wikipedia.org", "reference-education"],
  ["arxiv.org", "reference-education"],
  ["britannica.com", "reference-education"],
  ["khanacademy.org", "reference-education"],
  ["coursera.org", "reference-education"],
  ["edx.org", "reference-education"],
  ["mit.edu", "reference-education"],
  ["stanford.edu", "reference-education"],
  ["w3.org", "reference-education"],
  ["mozilla.org", "reference-education"],
  ["archive.org", "reference-education"],
  ["nature.com", "reference-education"],
  ["jstor.org", "reference-education"],
  ["notion.so", "saas-productivity"],
  ["slack.com", "saas-productivity"],
  ["atlassian.com", "saas-productivity"],
  ["zoom.us", "saas-productivity"],
  ["figma.com", "saas-productivity"],
  ["salesforce.com", "saas-productivity"],
  ["hubspot.com", "saas-productivity"],
  ["dropbox.com", "saas-productivity"],
  ["asana.com", "saas-productivity"],
  ["zapier.com", "saas-productivity"],
  ["airtable.com", "saas-productivity"],
  ["linear.app", "saas-productivity"],
  ["intercom.com", "saas-productivity"],
];

/** Every crawled domain, validated (unique, at least 100) when the module loads. */
export const WEB_DOMAINS: WebDomain[] = z
  .array(webDomainSchema)
  .min(100)
  .refine((list) => new Set(list.map((d) => d.domain)).size === list.length, "domains must be unique")
  .parse(RAW.map(([domain, sector]) => ({ domain, sector })));

/** One known AI crawler: its product token in robots.txt, its operator and the operator's documentation. */
export const aiBotSchema = z.strictObject({
  token: z.string().regex(/^[A-Za-z0-9._-]{2,40}$/),
  operator: z.string().min(1),
  purpose: z.enum(["training", "search", "user-fetch"]),
  source: httpsUrl,
  checked: checkedDate,
});
export type AiBot = z.infer<typeof aiBotSchema>;

const bot = (token: string, operator: string, purpose: AiBot["purpose"], source: string): AiBot => ({ token, operator, purpose, source, checked: WEB_DOMAINS_CHECKED });

/** The AI crawlers reported per domain, in the order answers list them. */
export const AI_BOTS: AiBot[] = z
  .array(aiBotSchema)
  .min(1)
  .refine((list) => new Set(list.map((b) => b.token.toLowerCase())).size === list.length, "tokens must be unique")
  .refine(
    (list) => JSON.stringify(list.filter((b) => b.purpose === "user-fetch").map((b) => b.token).sort()) === JSON.stringify([...USER_FETCH_BOTS].sort()),
    "the user-fetch bots must equal the contract's USER_FETCH_BOTS",
  )
  .parse([
    bot("GPTBot", "OpenAI", "training", "https://platform.openai.com/docs/bots"),
    bot("OAI-SearchBot", "OpenAI", "search", "https://platform.openai.com/docs/bots"),
    bot("ChatGPT-User", "OpenAI", "user-fetch", "https://platform.openai.com/docs/bots"),
    bot("ClaudeBot", "Anthropic", "training", "https://support.anthropic.com/en/articles/8896518"),
    bot("Claude-User", "Anthropic", "user-fetch", "https://support.anthropic.com/en/articles/8896518"),
    bot("Google-Extended", "Google", "training", "https://developers.google.com/search/docs/crawling-indexing/google-common-crawlers"),
    bot("Applebot-Extended", "Apple", "training", "https://support.apple.com/en-us/119829"),
    bot("PerplexityBot", "Perplexity", "search", "https://docs.perplexity.ai/guides/bots"),
    bot("CCBot", "Common Crawl", "training", "https://commoncrawl.org/ccbot"),
    bot("Bytespider", "ByteDance", "training", "https://github.com/ai-robots-txt/ai.robots.txt"),
    bot("meta-externalagent", "Meta", "training", "https://developers.facebook.com/docs/sharing/webmasters/web-crawlers"),
    bot("Amazonbot", "Amazon", "search", "https://developer.amazon.com/amazonbot"),
    bot("cohere-ai", "Cohere", "user-fetch", "https://github.com/ai-robots-txt/ai.robots.txt"),
    bot("MistralAI-User", "Mistral AI", "user-fetch", "https://docs.mistral.ai/robots"),
  ]);

/** The product token this service's own crawler obeys in each site's robots.txt (the shared client's User-Agent names it). */
export const OWN_CRAWLER_TOKEN = "agentfeed";
