/**
 * Curated references of the `ai-capex` snapshot: historical infrastructure capex cycles (peak capital spending as a
 * share of GDP) and US nominal GDP by year. Every figure names the page it was read on and the day it was checked;
 * a cycle without a sourced share of GDP is left out rather than estimated (the UK railway mania, electrification,
 * the interstate highways and others were looked for on 2026-11-26 and no figure with a traceable source was
 * found). A drawdown is given only where a source states one, else null. GDP years are added as their sourced
 * figure is checked; a year missing here makes the current cycle's share for that year unavailable.
 */
import type { CapexCycle, GdpYear } from "../contract/snapshots/ai-capex.ts";

const CHECKED = "2026-11-26";

const TUNGUZ = {
  source_url: "https://www.linkedin.com/pulse/we-being-railroaded-ai-tomasz-tunguz-itbic",
  source_name: "Tomasz Tunguz, \"Are We Being Railroaded by AI?\" (also tomtunguz.com/llm-impact-gdp); peak single-year spending as a share of that year's GDP",
};

export const CAPEX_CYCLES: readonly CapexCycle[] = [
  {
    id: "us-railroads-gilded-age",
    name: "US railroads of the Gilded Age",
    economy: "United States",
    peak_period: "Gilded Age (late 19th century)",
    peak_capex_pct_gdp: 6.0,
    measure: "Peak single-year railroad investment as a share of US GDP; the post cites Ulmer (1960), Capital in Transportation, Communications and Public Utilities",
    ...TUNGUZ,
    checked: CHECKED,
    peak_to_trough_drawdown_pct: null,
    drawdown_measure: null,
    drawdown_source_url: null,
    drawdown_source_name: null,
  },
  {
    id: "us-it-investment-dotcom",
    name: "US information-technology investment boom of the dot-com era",
    economy: "United States",
    peak_period: "Q4 2000",
    peak_capex_pct_gdp: 4.6,
    measure: "Private domestic investment in information processing equipment and software as a share of GDP (BEA data, a quarter at an annual rate); economy-wide, not only the build-out's firms",
    source_url: "https://www.dailyexpertnews.com/technology/the-boom-in-ai-spending-is-enormous-but-not-unprecedented-mint/",
    source_name: "Justin Fox, Bloomberg Opinion, 8 October 2025 (\"The AI Spending Boom Is Massive But Not Unprecedented\", as reprinted)",
    checked: CHECKED,
    peak_to_trough_drawdown_pct: 78,
    drawdown_measure: "Nasdaq Composite, March 2000 peak to October 2002 trough",
    drawdown_source_url: "https://www.businessinsider.in/stock-market/news/the-crash-in-the-nasdaq-is-looking-a-lot-like-the-bursting-of-the-2000-dot-com-bubble-and-that-lasted-almost-3-years/amp_articleshow/92236767.cms",
    drawdown_source_name: "Business Insider, 15 June 2022 (FactSet data)",
  },
  {
    id: "us-telecom-fibre-buildout",
    name: "US telecom and fibre build-out of the late 1990s",
    economy: "United States",
    peak_period: "late 1990s to 2000",
    peak_capex_pct_gdp: 1.2,
    measure: "Peak single-year telecom build-out spending as a share of US GDP",
    ...TUNGUZ,
    checked: CHECKED,
    peak_to_trough_drawdown_pct: null,
    drawdown_measure: null,
    drawdown_source_url: null,
    drawdown_source_name: null,
  },
];

/** US nominal GDP, billions of current dollars, by calendar year. */
export const US_GDP: readonly GdpYear[] = [
  {
    year: 2023,
    gdp_usd_b: 27720.709,
    source_url: "https://fred.stlouisfed.org/release/tables?eid=42420&rid=53",
    source_name: "US Bureau of Economic Analysis, NIPA Table 1.7.5 line 1 (gross domestic product, annual, billions of dollars), via FRED release tables",
    checked: CHECKED,
  },
];
