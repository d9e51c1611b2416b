/**
 * AI providers whose OFFICIAL status pages the status feed copies, with the machine-readable endpoint each
 * page really serves and its format. Checked 2026-11-22 against public references (status-page hosting
 * vendor docs and open-source monitors that record live HTTP checks of these endpoints); `note` says why
 * an endpoint was chosen where the hosting is not plain Atlassian Statuspage.
 */
import { z } from "zod";

/** Formats the status sources understand (one source file each under pipelines/sources/status-*.ts). */
export const statusFormat = z.enum(["statuspage", "betterstack", "google-cloud", "rss"]);
export type StatusFormat = z.infer<typeof statusFormat>;

/** One catalog row. */
export const statusProvider = z.strictObject({
  provider: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, "lowercase provider id"),
  name: z.string().min(1),
  statusPageUrl: z.url(),
  endpoint: z.url(),
  format: statusFormat,
  /** Components that matter (see StatusMeta.components for what each format does with them). */
  components: z.array(z.string().min(1)).min(1).optional(),
  /** RSS only: hours after which an unresolved item counts as history. */
  activeHours: z.number().int().positive().optional(),
  /** Who hosts the page, when that is not obvious from the format. */
  hosting: z.string().min(1),
  checked: z.iso.date(),
  note: z.string().optional(),
});
export type StatusProvider = z.infer<typeof statusProvider>;

const CHECKED = "2026-11-22";

/** The providers, validated at import time; ids are unique. */
export const statusProviders: StatusProvider[] = z
  .array(statusProvider)
  .refine((rows) => new Set(rows.map((r) => r.provider)).size === rows.length, "provider ids must be unique")
  .parse([
    {
      provider: "openai",
      name: "OpenAI",
      statusPageUrl: "https://status.openai.com",
      endpoint: "https://status.openai.com/api/v2/summary.json",
      format: "statuspage",
      hosting: "incident.io (Statuspage-compatible API)",
      checked: CHECKED,
      note: "incident.io serves the Statuspage summary shape; its summary omits incidents, components are complete.",
    },
    {
      provider: "anthropic",
      name: "Anthropic",
      statusPageUrl: "https://status.claude.com",
      endpoint: "https://status.claude.com/api/v2/summary.json",
      format: "statuspage",
      hosting: "Atlassian Statuspage",
      checked: CHECKED,
      note: "status.anthropic.com now redirects to status.claude.com.",
    },
    {
      provider: "google",
      name: "Google Cloud (Vertex AI / Gemini)",
      statusPageUrl: "https://status.cloud.google.com",
      endpoint: "https://status.cloud.google.com/incidents.json",
      format: "google-cloud",
      components: ["Vertex Gemini API", "Vertex AI Online Prediction", "Vertex AI Search"],
      hosting: "Google Cloud Service Health",
      checked: CHECKED,
      note: "The AI Studio status page (aistudio.google.com/status) has no public machine-readable endpoint; Gemini on Vertex is reported through Google Cloud's incidents.json.",
    },
    {
      provider: "cohere",
      name: "Cohere",
      statusPageUrl: "https://status.cohere.com",
      endpoint: "https://status.cohere.com/api/v2/summary.json",
      format: "statuspage",
      hosting: "incident.io (Statuspage-compatible API)",
      checked: CHECKED,
    },
    {
      provider: "groq",
      name: "Groq",
      statusPageUrl: "https://groqstatus.com",
      endpoint: "https://groqstatus.com/api/v2/summary.json",
      format: "statuspage",
      hosting: "incident.io (Statuspage-compatible API)",
      checked: CHECKED,
    },
    {
      provider: "replicate",
      name: "Replicate",
      statusPageUrl: "https://www.replicatestatus.com",
      endpoint: "https://www.replicatestatus.com/api/v2/summary.json",
      format: "statuspage",
      hosting: "incident.io (Statuspage-compatible API)",
      checked: CHECKED,
    },
    {
      provider: "perplexity",
      name: "Perplexity",
      statusPageUrl: "https://status.perplexity.com",
      endpoint: "https://status.perplexity.com/api/v2/summary.json",
      format: "statuspage",
      hosting: "incident.io (Statuspage-compatible API)",
      checked: CHECKED,
      note: "The page moved from Instatus to incident.io; the Statuspage-compatible summary answers 200.",
    },
    {
      provider: "cerebras",
      name: "Cerebras Inference",
      statusPageUrl: "https://status.cerebras.ai",
      endpoint: "https://status.cerebras.ai/api/v2/summary.json",
      format: "statuspage",
      hosting: "Atlassian Statuspage",
      checked: CHECKED,
    },
    {
      provider: "together",
      name: "Together AI",
      statusPageUrl: "https://status.together.ai",
      endpoint: "https://status.together.ai/index.json",
      format: "betterstack",
      hosting: "Better Stack",
      checked: CHECKED,
      note: "Better Stack pages expose one public JSON:API document at /index.json; /api/v2 paths do not exist there.",
    },
    {
      provider: "fireworks",
      name: "Fireworks AI",
      statusPageUrl: "https://status.fireworks.ai",
      endpoint: "https://status.fireworks.ai/index.json",
      format: "betterstack",
      hosting: "Better Stack",
      checked: CHECKED,
    },
    {
      provider: "huggingface",
      name: "Hugging Face",
      statusPageUrl: "https://status.huggingface.co",
      endpoint: "https://status.huggingface.co/index.json",
      format: "betterstack",
      hosting: "Better Stack",
      checked: CHECKED,
    },
    {
      provider: "xai",
      name: "xAI",
      statusPageUrl: "https://status.x.ai",
      endpoint: "https://status.x.ai/feed.xml",
      format: "rss",
      activeHours: 24,
      hosting: "custom page with an Atom feed",
      checked: CHECKED,
      note: "The HTML page refuses non-browser clients; the feed is the machine-readable surface.",
    },
    {
      provider: "azure-openai",
      name: "Azure OpenAI",
      statusPageUrl: "https://azure.status.microsoft/en-us/status",
      endpoint: "https://rssfeed.azure.status.microsoft/en-us/status/feed/",
      format: "rss",
      components: ["Azure OpenAI"],
      hosting: "Azure status (RSS of current incidents)",
      checked: CHECKED,
      note: "The feed covers all of Azure; only items naming Azure OpenAI count.",
    },
    {
      provider: "deepseek",
      name: "DeepSeek",
      statusPageUrl: "https://status.deepseek.com",
      endpoint: "https://status.deepseek.com/history.rss",
      format: "rss",
      activeHours: 24,
      hosting: "Flashduty",
      checked: CHECKED,
      note: "Flashduty serves no summary JSON (api/v2 paths answer 404); the history RSS is its public feed.",
    },
  ]);

/** A provider's catalog row by id. */
export function statusProviderById(id: string): StatusProvider | undefined {
  return statusProviders.find((p) => p.provider === id);
}
