import { describe, expect, it } from "vitest";
import { AI_COMPANIES, submissionsUrl } from "../catalog/ai-companies.ts";
import { testFeedContext } from "../lib/testing/feed-context.ts";
import { recordingHttp as recording } from "../lib/testing/recording-http.ts";
import { replayFixtures } from "../lib/testing/replay-fixtures.ts";
import { readFileSync } from "node:fs";
import { replayPathFor } from "../lib/replay-path.ts";
import { isDocumentName, parseSubmissions, primaryDocUrl } from "../sources/sec-edgar.ts";
import { edgarUserAgent, runSecFilings, secFilingsFeed } from "./sec-filings.ts";
import { FILINGS_KEPT, type SecFilingsSnapshot } from "../contract/snapshots/sec-filings.ts";

const NOW = new Date("2026-11-25T04:23:00Z");
const fixtures = replayFixtures();
const client = fixtures.client;


describe("parseSubmissions()", () => {
  const recent = {
    accessionNumber: ["0001045810-25-000230", "bad", "0001045810-25-000210", "0001045810-25-000199"],
    filingDate: ["2025-11-19", "2025-11-01", "2025-08-27", "not a date"],
    reportDate: ["2025-10-26", "", "", ""],
    form: ["10-Q", "8-K", "8-K<script>", "4"],
    primaryDocument: ["nvda-20251026.htm", "x.htm", "q2fy26pr.htm", "form4.xml"],
    primaryDocDescription: ["10-Q", "", "<b>EX-99.1</b>", ""],
  };

  it("keeps well-formed filings newest first with archive URLs, sanitized text, and skips the malformed", () => {
    const parsed = parseSubmissions("0001045810", { name: "NVIDIA CORP", filings: { recent } }, NOW);
    expect(parsed.name).toBe("NVIDIA CORP");
    expect(parsed.skipped).toBe(2);
    expect(parsed.filings.map((f) => f.accession_number)).toEqual(["0001045810-25-000230", "0001045810-25-000210"]);
    expect(parsed.filings[0]).toEqual({
      accession_number: "0001045810-25-000230",
      form: "10-Q",
      filing_date: "2025-11-19",
      report_date: "2025-10-26",
      primary_document: "nvda-20251026.htm",
      primary_doc_url: "https://www.sec.gov/Archives/edgar/data/1045810/000104581025000230/nvda-20251026.htm",
      description: "10-Q",
    });
    expect(parsed.filings[1]!.form).not.toMatch(/</);
    expect(parsed.filings[1]!.description).toBe("EX-99.1");
  });

  it("refuses a body that is not a submissions document", () => {
    expect(() => parseSubmissions("0000000001", "<html>", NOW)).toThrow();
    expect(primaryDocUrl("0000002488", "0000002488-25-000012", "amd 10q.htm")).toBe("https://www.sec.gov/Archives/edgar/data/2488/000000248825000012/amd%2010q.htm");
    // An ownership report's primary document is its XSL-rendered view, one folder deep.
    expect(primaryDocUrl("0001045810", "0001347842-26-000007", "xslF345X05/wk-form4_1772663608.xml")).toBe("https://www.sec.gov/Archives/edgar/data/1045810/000134784226000007/xslF345X05/wk-form4_1772663608.xml");
    expect(["nvda-20250126.htm", "xslF345X05/form4.xml"].every(isDocumentName)).toBe(true);
    expect(["../x.htm", "a/../b.htm", "a/b/c.htm", "a b.htm", "", "/x.htm"].some(isDocumentName)).toBe(false);
  });
});

describe("parseSubmissions() dates", () => {
  const nvda = AI_COMPANIES.find((c) => c.ticker === "NVDA")!;
  const recorded = () => JSON.parse(readFileSync(`pipelines/fixtures/${replayPathFor(submissionsUrl(nvda.cik))}`, "utf8")) as { filings: { recent: Record<string, unknown[]> } };

  it("skips and counts only the recorded filings whose filing day is not a real past day; a bad report day is null", () => {
    const body = recorded();
    const before = parseSubmissions(nvda.cik, body, NOW);
    const r = body.filings.recent;
    const accession = (i: number) => r["accessionNumber"]![i] as string;
    r["filingDate"]![0] = "9999-12-31";
    r["filingDate"]![1] = "2026-02-30";
    r["reportDate"]![2] = "2026-13-01";
    const after = parseSubmissions(nvda.cik, body, NOW);
    expect(after.skipped).toBe(before.skipped + 2);
    for (const f of after.filings) expect(f.filing_date <= "2026-11-26").toBe(true);
    expect(after.filings.map((f) => f.accession_number)).not.toContain(accession(0));
    expect(after.filings.map((f) => f.accession_number)).not.toContain(accession(1));
    expect(after.filings.find((f) => f.accession_number === accession(2))?.report_date).toBeNull();
    // The list refills from the next listed filings, up to FILINGS_KEPT.
    expect(after.filings).toHaveLength(Math.min(FILINGS_KEPT, before.filings.length));
  });

  it("run() keeps the company's other filings when one filing date is out of range", async () => {
    const body = recorded();
    body.filings.recent["filingDate"]![0] = "9999-12-31";
    const dir = fixtures.replayOf("sec-filings-dates-", { [submissionsUrl(nvda.cik)]: JSON.stringify(body) });
    const ctx = testFeedContext({ http: client(dir), now: NOW });
    const out = await runSecFilings(ctx, { companies: [nvda], contact: "test@example.com" });
    const company = out.data.companies[0]!;
    expect(company.status).toBe("ok");
    expect(company.filings.length).toBeGreaterThan(10);
    expect(company.filings[0]!.filing_date <= "2026-11-26").toBe(true);
    expect(ctx.notices).toContain("sec-filings: NVDA had 1 filings with a malformed accession number, filing date or document name (skipped)");
  });
});

describe("sec-filings feed", () => {
  it("declares every cohort company's submissions URL, and the cohort is 14 distinct companies", () => {
    expect(AI_COMPANIES).toHaveLength(14);
    expect(secFilingsFeed.urls()).toEqual(AI_COMPANIES.map((c) => `https://data.sec.gov/submissions/CIK${c.cik}.json`));
    expect(secFilingsFeed.slaSeconds).toBe(9 * 3600);
  });

  it("replays the cohort from the recorded submissions, one company at a time with a contact in the User-Agent, paced on a live run", async () => {
    const seen: { url: string; headers: Record<string, string> }[] = [];
    const sleeps: number[] = [];
    const ctx = { ...testFeedContext({ http: recording(client("pipelines/fixtures"), seen), now: NOW }), provenance: "live" as const };
    const out = await runSecFilings(ctx, { contact: "ops@agentfeed.example", sleep: async (ms) => void sleeps.push(ms) });
    expect(out.data.companies.map((c) => c.ticker)).toEqual(AI_COMPANIES.map((c) => c.ticker));
    // NVIDIA and Microsoft are recorded; the other twelve have no recording and fail (replay_missing), as a live
    // company whose read fails would.
    const read = out.data.companies.filter((c) => c.status === "ok");
    expect(read.map((c) => c.ticker)).toEqual(["NVDA", "MSFT"]);
    expect(read.every((c) => c.filings.length === FILINGS_KEPT)).toBe(true);
    expect(out.data.companies.filter((c) => c.status === "failed").every((c) => c.filings.length === 0 && /replay fixture/.test(c.error ?? ""))).toBe(true);
    const nvda = out.data.companies.find((c) => c.ticker === "NVDA")!;
    expect(nvda).toMatchObject({ cik: "0001045810", edgar_name: "NVIDIA CORP", category: "accelerators", exchange: "Nasdaq" });
    expect(nvda.filings.map((f) => f.filing_date)).toEqual([...nvda.filings.map((f) => f.filing_date)].sort().reverse());
    expect(nvda.filings[0]!.filing_date).toBe("2026-03-04");
    expect(seen.map((s) => s.headers["User-Agent"])).toEqual(AI_COMPANIES.map(() => edgarUserAgent("ops@agentfeed.example")));
    expect(sleeps).toEqual(AI_COMPANIES.slice(1).map(() => 125));
  });

  it("refuses a live run without a contact, and keeps a failed company's previous filings, marked failed", async () => {
    const live = { ...testFeedContext({ http: client("pipelines/fixtures"), now: NOW }), provenance: "live" as const };
    await expect(runSecFilings(live, { contact: "" })).rejects.toThrow(/SEC_EDGAR_CONTACT is not set/);
    await expect(runSecFilings(live, { contact: "not valid contact" })).rejects.toThrow(/SEC_EDGAR_CONTACT is not an e-mail address .*"not valid contact"/);
    // Neither an address nor a URL: EDGAR could not reach anyone through it.
    await expect(runSecFilings(live, { contact: "not-a-contact" })).rejects.toThrow(/SEC_EDGAR_CONTACT is not an e-mail address .*"not-a-contact"/);
    await expect(runSecFilings(live, { contact: "ops@" })).rejects.toThrow(/SEC_EDGAR_CONTACT is not an e-mail address/);

    const [nvda, amd] = AI_COMPANIES;
    const dir = fixtures.replayOf("sec-filings-", { [submissionsUrl(nvda!.cik)]: JSON.stringify({ name: "NVIDIA CORP", filings: { recent: { accessionNumber: ["0001045810-25-000230"], filingDate: ["2025-11-19"], reportDate: [""], form: ["8-K"], primaryDocument: ["a.htm"], primaryDocDescription: [""] } } }) });
    const previous: SecFilingsSnapshot = {
      companies: [{ ...amd!, edgar_name: "ADVANCED MICRO DEVICES INC", status: "ok", filings: [{ accession_number: "0000002488-25-000100", form: "10-Q", filing_date: "2025-11-05", report_date: "2025-09-27", primary_document: "amd.htm", primary_doc_url: "https://www.sec.gov/Archives/edgar/data/2488/000000248825000100/amd.htm", description: null }] }],
    };
    const ctx = { ...testFeedContext({ http: client(dir), now: NOW, latest: { "sec-filings": previous } }), provenance: "replay" as const };
    const out = await runSecFilings(ctx, { companies: [nvda!, amd!] });
    expect(out.data.companies[0]).toMatchObject({ ticker: "NVDA", status: "ok" });
    expect(out.data.companies[1]).toMatchObject({ ticker: "AMD", status: "failed", edgar_name: "ADVANCED MICRO DEVICES INC" });
    expect(out.data.companies[1]!.filings).toEqual(previous.companies[0]!.filings);
    expect(ctx.notices.some((n) => n.includes("AMD failed"))).toBe(true);
    await expect(runSecFilings(ctx, { companies: [amd!] })).rejects.toThrow(/all 1 companies failed/);
  });
});
