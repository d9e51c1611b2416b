/**
 * The curated AI funding registry (snapshot `funding-portfolio`). Each commitment names the page it was checked
 * against and when; amounts are those announced or, where the parties did not disclose them, those the named
 * source reports (amount_note says which). silicon_dependency is the accelerator family the source says the
 * recipient's compute under the deal runs on, else unknown. Checked 2026-11-25.
 */
import type { FundingCommitment, FundingPortfolioSnapshot } from "../contract/snapshots/funding-portfolio.ts";

const CHECKED = "2026-11-25";

export const FUNDING_COMMITMENTS: readonly FundingCommitment[] = [
  {
    id: "microsoft-openai-2023-01",
    investor: "Microsoft",
    investor_ticker: "MSFT",
    recipient: "OpenAI",
    amount_usd_min: 10_000_000_000,
    amount_usd_max: 10_000_000_000,
    amount_note: "Announced as a multiyear, multibillion-dollar investment; about $10 billion as reported by Bloomberg",
    announced: "2023-01-23",
    silicon_dependency: "unknown",
    source_url: "https://www.zdnet.com/article/microsoft-just-made-a-huge-investment-in-chatgpt-maker-openai-heres-why/",
    source_name: "ZDNET",
    checked: CHECKED,
  },
  {
    id: "amazon-anthropic-2023-09",
    investor: "Amazon",
    investor_ticker: "AMZN",
    recipient: "Anthropic",
    amount_usd_min: 1_250_000_000,
    amount_usd_max: 4_000_000_000,
    amount_note: "Up to $4 billion: $1.25 billion at once, $2.75 billion more at either party's option; Anthropic to train on AWS chips",
    announced: "2023-09-25",
    silicon_dependency: "aws-trainium",
    source_url: "https://www.straitstimes.com/business/companies-markets/amazon-steps-up-ai-race-with-up-to-us4-billion-deal-to-invest-in-anthropic",
    source_name: "The Straits Times (Reuters)",
    checked: CHECKED,
  },
  {
    id: "google-anthropic-2023-10",
    investor: "Alphabet",
    investor_ticker: "GOOGL",
    recipient: "Anthropic",
    amount_usd_min: 500_000_000,
    amount_usd_max: 2_000_000_000,
    amount_note: "Up to $2 billion: $500 million upfront, $1.5 billion over time",
    announced: "2023-10-27",
    silicon_dependency: "google-tpu",
    source_url: "https://www.axios.com/2023/10/30/google-invests-2-billion-anthropic-openai",
    source_name: "Axios",
    checked: CHECKED,
  },
  {
    id: "microsoft-mistral-2024-02",
    investor: "Microsoft",
    investor_ticker: "MSFT",
    recipient: "Mistral AI",
    amount_usd_min: 16_000_000,
    amount_usd_max: 16_000_000,
    amount_note: "EUR 15 million (about $16 million), with a multi-year Azure partnership",
    announced: "2024-02-26",
    silicon_dependency: "unknown",
    source_url: "https://www.techtimes.com/articles/302240/20240303/microsoft-mistral-ais-multi-million-euro-partnership-reshape-ai-landscape.htm",
    source_name: "Tech Times",
    checked: CHECKED,
  },
  {
    id: "amazon-anthropic-2024-11",
    investor: "Amazon",
    investor_ticker: "AMZN",
    recipient: "Anthropic",
    amount_usd_min: 4_000_000_000,
    amount_usd_max: 4_000_000_000,
    amount_note: "A further $4 billion (Amazon's total $8 billion); Anthropic to train on AWS Trainium as its primary training partner",
    announced: "2024-11-22",
    silicon_dependency: "aws-trainium",
    source_url: "https://qz.com/amazon-invest-4-billion-ai-startup-anthropic-model-chip-1851705944",
    source_name: "Quartz",
    checked: CHECKED,
  },
  {
    id: "nvidia-openai-2025-09",
    investor: "NVIDIA",
    investor_ticker: "NVDA",
    recipient: "OpenAI",
    amount_usd_min: 10_000_000_000,
    amount_usd_max: 100_000_000_000,
    amount_note: "Letter of intent: up to $100 billion invested progressively as at least 10 GW of NVIDIA systems are deployed; $10 billion first, as reported by Bloomberg",
    announced: "2025-09-22",
    silicon_dependency: "nvidia-gpu",
    source_url: "https://openai.com/index/openai-nvidia-systems-partnership/",
    source_name: "OpenAI",
    checked: CHECKED,
  },
];

/** Investors whose own accelerators a recipient can depend on. */
export const INVESTOR_SILICON: FundingPortfolioSnapshot["investor_silicon"] = {
  Alphabet: "google-tpu",
  Amazon: "aws-trainium",
  Microsoft: "azure-maia",
  NVIDIA: "nvidia-gpu",
};
