/**
 * The cohort of the `sec-filings` feed and GET /api/premium/ai-companies/{ticker}: 14 AI-related public companies,
 * chosen by hand on 2026-11-25 along the AI build-out — accelerator and chip designers, the foundry, chip IP,
 * networking silicon, memory, AI servers, the hyperscalers that buy them, and the platforms that sell AI on top.
 * Tickers and CIKs as SEC EDGAR's company_tickers.json lists them; exchanges as EDGAR's submissions state them.
 */
import { z } from "zod";
import { AI_COMPANY_CATEGORIES, AI_COMPANIES_SOURCE } from "../contract/snapshots/sec-filings.ts";

export { AI_COMPANIES_SOURCE };

export const aiCompanyEntrySchema = z.strictObject({
  ticker: z.string().regex(/^[A-Z.]{1,6}$/),
  cik: z.string().regex(/^\d{10}$/),
  display_name: z.string().min(1),
  category: z.enum(AI_COMPANY_CATEGORIES),
  ai_angle: z.string().min(1).max(300),
  exchange: z.string().min(1),
  aliases: z.array(z.string().min(2)).min(1).max(10),
});
export type AiCompanyEntry = z.infer<typeof aiCompanyEntrySchema>;

const RAW: AiCompanyEntry[] = [
  { ticker: "NVDA", cik: "0001045810", display_name: "NVIDIA", category: "accelerators", exchange: "Nasdaq", ai_angle: "GPUs and systems that train and serve most frontier models; CUDA software stack", aliases: ["NVIDIA", "Nvidia"] },
  { ticker: "AMD", cik: "0000002488", display_name: "AMD", category: "accelerators", exchange: "Nasdaq", ai_angle: "Instinct data-center GPUs and EPYC server CPUs", aliases: ["AMD", "Advanced Micro Devices"] },
  { ticker: "AVGO", cik: "0001730168", display_name: "Broadcom", category: "networking-silicon", exchange: "Nasdaq", ai_angle: "Custom AI accelerators for hyperscalers and data-center Ethernet switching silicon", aliases: ["Broadcom"] },
  { ticker: "TSM", cik: "0001046179", display_name: "TSMC", category: "foundry", exchange: "NYSE", ai_angle: "Manufactures most leading-edge AI accelerators and their advanced packaging", aliases: ["TSMC", "Taiwan Semiconductor"] },
  { ticker: "ARM", cik: "0001973239", display_name: "Arm Holdings", category: "chip-ip", exchange: "Nasdaq", ai_angle: "CPU architecture licensed into data-center and device AI chips", aliases: ["Arm Holdings"] },
  { ticker: "MU", cik: "0000723125", display_name: "Micron", category: "memory", exchange: "Nasdaq", ai_angle: "High-bandwidth memory (HBM) and data-center DRAM for accelerators", aliases: ["Micron"] },
  { ticker: "SMCI", cik: "0001375365", display_name: "Super Micro Computer", category: "ai-servers", exchange: "Nasdaq", ai_angle: "GPU servers and liquid-cooled racks for AI clusters", aliases: ["Supermicro", "Super Micro"] },
  { ticker: "MSFT", cik: "0000789019", display_name: "Microsoft", category: "hyperscaler", exchange: "Nasdaq", ai_angle: "Azure AI infrastructure, OpenAI partner and investor, Copilot products", aliases: ["Microsoft", "Azure"] },
  { ticker: "GOOGL", cik: "0001652044", display_name: "Alphabet", category: "hyperscaler", exchange: "Nasdaq", ai_angle: "Google DeepMind and Gemini models, TPUs, Google Cloud", aliases: ["Alphabet", "Google", "DeepMind"] },
  { ticker: "AMZN", cik: "0001018724", display_name: "Amazon", category: "hyperscaler", exchange: "Nasdaq", ai_angle: "AWS (Bedrock, Trainium and Inferentia chips), investor in Anthropic", aliases: ["Amazon", "AWS"] },
  { ticker: "META", cik: "0001326801", display_name: "Meta Platforms", category: "hyperscaler", exchange: "Nasdaq", ai_angle: "Llama open-weight models and some of the largest AI data-center build-outs", aliases: ["Meta Platforms", "Meta AI"] },
  { ticker: "ORCL", cik: "0001341439", display_name: "Oracle", category: "cloud-database", exchange: "NYSE", ai_angle: "OCI GPU cloud capacity contracted to AI labs", aliases: ["Oracle"] },
  { ticker: "PLTR", cik: "0001321655", display_name: "Palantir", category: "ai-platform", exchange: "Nasdaq", ai_angle: "AIP: LLM-driven operations software for enterprises and governments", aliases: ["Palantir"] },
  { ticker: "IBM", cik: "0000051143", display_name: "IBM", category: "ai-platform", exchange: "NYSE", ai_angle: "watsonx models and platform, Granite open models, AI consulting", aliases: ["IBM", "watsonx"] },
];

/** The cohort, checked at import: tickers and CIKs unique. */
export const AI_COMPANIES: readonly AiCompanyEntry[] = (() => {
  const parsed = RAW.map((r) => aiCompanyEntrySchema.parse(r));
  const tickers = new Set(parsed.map((p) => p.ticker));
  const ciks = new Set(parsed.map((p) => p.cik));
  if (tickers.size !== parsed.length || ciks.size !== parsed.length) throw new Error("ai-companies catalog: a ticker or CIK appears twice");
  return parsed;
})();

/** The submissions document of a company (data.sec.gov). */
export function submissionsUrl(cik: string): string {
  return `https://data.sec.gov/submissions/CIK${cik}.json`;
}
