import { afterAll, describe, expect, it } from "vitest";
import { AI_COMPANIES, submissionsUrl } from "../catalog/ai-companies.ts";
import type { SecFilingSectionsSnapshot } from "../contract/snapshots/sec-filing-sections.ts";
import { type ClosableHttpClient, createHttpClient } from "../lib/http/client.ts";
import { testFeedContext } from "../lib/testing/feed-context.ts";
import { recordingHttp as recording } from "../lib/testing/recording-http.ts";
import { periodicFilings } from "../sources/sec-edgar.ts";
import { runSecFilingSections, secFilingSectionsFeed } from "./sec-filing-sections.ts";
import { edgarUserAgent } from "./sec-filings.ts";

const NOW = new Date("2026-11-26T05:47:00Z");
const NVDA = AI_COMPANIES.find((c) => c.ticker === "NVDA")!;
const MSFT = AI_COMPANIES.find((c) => c.ticker === "MSFT")!;
const clients: ClosableHttpClient[] = [];
function client(): ClosableHttpClient {
  const c = createHttpClient({ replayDir: "pipelines/fixtures", retries: 0, sleep: async () => {} });
  clients.push(c);
  return c;
}
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
});


describe("periodicFilings()", () => {
  it("keeps the latest filings of each exact form, newest first, amendments apart", () => {
    const recent = {
      accessionNumber: ["0000000001-25-000003", "0000000001-25-000002", "0000000001-24-000009", "0000000001-24-000001", "bad", "0000000001-23-000001"],
      filingDate: ["2025-05-01", "2025-02-20", "2024-11-01", "2024-02-21", "2024-01-01", "2023-02-24"],
      reportDate: ["2025-04-27", "2025-01-26", "", "2024-01-28", "", "2023-01-29"],
      form: ["10-Q", "10-K", "10-K/A", "10-K", "10-K", "10-K"],
      primaryDocument: ["q1.htm", "k25.htm", "ka.htm", "k24.htm", "x.htm", "k23.htm"],
      primaryDocDescription: ["", "", "", "", "", ""],
    };
    const { name, byForm } = periodicFilings("0000000001", { name: "ACME CORP", filings: { recent } }, ["10-K", "10-Q"], 2, NOW);
    expect(name).toBe("ACME CORP");
    expect(byForm.get("10-K")!.map((f) => f.accession_number)).toEqual(["0000000001-25-000002", "0000000001-24-000001"]);
    expect(byForm.get("10-Q")).toEqual([{ accession_number: "0000000001-25-000003", form: "10-Q", filing_date: "2025-05-01", report_date: "2025-04-27", primary_doc_url: "https://www.sec.gov/Archives/edgar/data/1/000000000125000003/q1.htm" }]);
    expect(() => periodicFilings("0000000001", "<html>", ["10-K"], 2, NOW)).toThrow();
  });

  it("leaves out only the filing whose day is not a real past day", () => {
    const recent = {
      accessionNumber: ["0000000001-99-000001", "0000000001-25-000002", "0000000001-24-000001", "0000000001-23-000001"],
      filingDate: ["9999-12-31", "2025-02-20", "2024-02-30", "2023-02-24"],
      reportDate: ["9999-12-30", "+010000-01-01", "2024-01-28", "2023-01-29"],
      form: ["10-K", "10-K", "10-K", "10-K"],
      primaryDocument: ["k99.htm", "k25.htm", "k24.htm", "k23.htm"],
      primaryDocDescription: ["", "", "", ""],
    };
    const { byForm } = periodicFilings("0000000001", { name: "ACME CORP", filings: { recent } }, ["10-K"], 3, NOW);
    expect(byForm.get("10-K")!.map((f) => [f.accession_number, f.report_date])).toEqual([
      ["0000000001-25-000002", null],
      ["0000000001-23-000001", "2023-01-29"],
    ]);
  });
});

describe("sec-filing-sections feed", () => {
  it("reads NVIDIA's listed 10-K documents as EDGAR serves them, keeps an unreadable one as failed, and names the newest of each form", async () => {
    const seen: { url: string; headers: Record<string, string> }[] = [];
    const sleeps: number[] = [];
    const ctx = { ...testFeedContext({ http: recording(client(), seen), now: NOW }), provenance: "live" as const };
    const out = await runSecFilingSections(ctx, { companies: [NVDA], contact: "ops@agentfeed.example", sleep: async (ms) => void sleeps.push(ms) });
    const nvda = out.data.companies[0]!;
    expect(nvda).toMatchObject({ ticker: "NVDA", edgar_name: "NVIDIA CORP", status: "ok", newest: { "10-K": { accession_number: "0001045810-26-000021", filing_date: "2026-02-25" }, "10-Q": { accession_number: "0001045810-25-000230" } } });
    const tenK = nvda.filings.filter((f) => f.form === "10-K");
    expect(tenK.map((f) => [f.accession_number, f.status])).toEqual([
      ["0001045810-26-000021", "failed"],
      ["0001045810-25-000023", "ok"],
      ["0001045810-24-000029", "ok"],
    ]);
    expect(tenK[1]!.passages.filter((p) => p.section === "risk_factors")).toHaveLength(23);
    expect(tenK[1]!.primary_doc_url).toBe("https://www.sec.gov/Archives/edgar/data/1045810/000104581025000023/nvda-20250126.htm");
    expect(nvda.filings.filter((f) => f.form === "10-Q").every((f) => f.status === "failed" && f.passages.length === 0)).toBe(true);
    expect(seen[0]!.url).toBe(submissionsUrl(NVDA.cik));
    expect(seen.every((s) => s.headers["User-Agent"] === edgarUserAgent("ops@agentfeed.example"))).toBe(true);
    expect(sleeps).toEqual(seen.slice(1).map(() => 125));
    expect(ctx.notices.some((n) => n.includes("NVDA: 4 of 6 filing documents could not be read"))).toBe(true);
    expect(out.rows).toBe(nvda.filings.reduce((n, f) => n + f.passages.length, 0));
  });

  it("never fetches a filing it already read, keeps a failed company's filings, and refuses a live run without a contact", async () => {
    const live = { ...testFeedContext({ http: client(), now: NOW }), provenance: "live" as const };
    await expect(runSecFilingSections(live, { companies: [NVDA], contact: "" })).rejects.toThrow(/SEC_EDGAR_CONTACT/);

    const first = await runSecFilingSections({ ...testFeedContext({ http: client(), now: NOW }), provenance: "replay" as const }, { companies: [NVDA] });
    const previous: SecFilingSectionsSnapshot = {
      companies: [
        ...first.data.companies,
        { ticker: "AMD", cik: "0000002488", display_name: "AMD", edgar_name: "ADVANCED MICRO DEVICES INC", status: "ok", error: null, newest: { "10-K": null, "10-Q": null }, filings: [] },
      ],
    };
    const seen: { url: string; headers: Record<string, string> }[] = [];
    const amd = { ...AI_COMPANIES.find((c) => c.ticker === "AMD")!, cik: "0000009999" };
    const ctx = { ...testFeedContext({ http: recording(client(), seen), now: NOW, latest: { "sec-filing-sections": previous } }), provenance: "replay" as const };
    const out = await runSecFilingSections(ctx, { companies: [NVDA, amd] });
    expect(seen.map((s) => s.url)).not.toContain("https://www.sec.gov/Archives/edgar/data/1045810/000104581025000023/nvda-20250126.htm");
    expect(out.data.companies[0]!.filings).toEqual(first.data.companies[0]!.filings);
    expect(out.data.companies[1]).toMatchObject({ ticker: "AMD", status: "failed", edgar_name: "ADVANCED MICRO DEVICES INC", filings: [] });
    await expect(runSecFilingSections(ctx, { companies: [amd] })).rejects.toThrow(/all 1 companies failed/);
  });

  it("declares every cohort company's submissions URL", () => {
    expect(secFilingSectionsFeed.urls()).toEqual(AI_COMPANIES.map((c) => submissionsUrl(c.cik)));
    expect(secFilingSectionsFeed.type).toBe("sec-filing-sections");
    expect(MSFT.cik).toBe("0000789019");
  });
});
