import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { companyFactsUrl, fiscalYearOf, parseAnnualCapex } from "./sec-xbrl-capex.ts";

const recorded = (cik: string) => JSON.parse(gunzipSync(readFileSync(`pipelines/fixtures/data.sec.gov/api/xbrl/companyfacts/CIK${cik}.json.gz`)).toString("utf8")) as unknown;
const NOW = new Date("2026-11-26T05:41:00Z");
const fact = (o: Record<string, unknown>) => ({ start: "2024-01-01", end: "2024-12-31", val: 100, accn: "0000000001-25-000001", fy: 2024, fp: "FY", form: "10-K", filed: "2025-02-01", ...o });
const doc = (facts: Record<string, unknown[]>) => ({ cik: 1, entityName: "X", facts: { "us-gaap": Object.fromEntries(Object.entries(facts).map(([k, v]) => [k, { units: { USD: v } }])) } });

describe("parseAnnualCapex()", () => {
  it("reads NVIDIA's recorded facts: the concept it files now, fiscal years ending in January counted for the year before", () => {
    const years = parseAnnualCapex(recorded("0001045810"), NOW);
    expect(years.map((y) => [y.fiscal_year, y.capex_usd, y.concept])).toEqual([
      [2025, 6_042_000_000, "PaymentsToAcquireProductiveAssets"],
      [2024, 3_236_000_000, "PaymentsToAcquireProductiveAssets"],
      [2023, 1_069_000_000, "PaymentsToAcquireProductiveAssets"],
      [2022, 1_833_000_000, "PaymentsToAcquireProductiveAssets"],
      [2021, 976_000_000, "PaymentsToAcquireProductiveAssets"],
    ]);
    expect(years[0]).toMatchObject({ period_start: "2025-01-27", period_end: "2026-01-25", form: "10-K", accession_number: "0001045810-26-000021", filed: "2026-02-25" });
  });

  it("reads Alphabet's recorded facts, keeping the latest filing of a restated year", () => {
    const years = parseAnnualCapex(recorded("0001652044"), NOW);
    expect(years.map((y) => y.fiscal_year)).toEqual([2025, 2024, 2023, 2022, 2021, 2020]);
    expect(years[0]).toMatchObject({ capex_usd: 91_447_000_000, concept: "PaymentsToAcquirePropertyPlantAndEquipment", accession_number: "0001652044-26-000018" });
    expect(years.find((y) => y.fiscal_year === 2023)!.accession_number).toBe("0001652044-26-000018");
  });

  it("skips quarters, non-annual forms, malformed or negative values; a restatement wins; a later-filed concept wins a period", () => {
    const years = parseAnnualCapex(
      doc({
        PaymentsToAcquirePropertyPlantAndEquipment: [
          fact({ val: 100 }),
          fact({ val: 120, accn: "0000000001-26-000001", filed: "2026-02-01" }),
          fact({ start: "2024-10-01", end: "2024-12-31", val: 5 }),
          fact({ form: "10-Q", start: "2023-01-01", end: "2023-12-31", val: 7 }),
          fact({ start: "2022-01-01", end: "2022-12-31", val: -1 }),
          fact({ start: "2021-01-01", end: "2021-12-31", val: "9" }),
          fact({ start: "2020-01-01", end: "2020-12-31", accn: "bad" }),
          "not a fact",
        ],
        PaymentsToAcquireProductiveAssets: [fact({ start: "2019-01-01", end: "2019-12-31", val: 50 }), fact({ start: "2019-01-01", end: "2019-12-31", val: 55, filed: "2020-01-01" })],
      }),
      NOW,
    );
    expect(years.map((y) => [y.fiscal_year, y.capex_usd])).toEqual([
      [2024, 120],
      [2019, 50],
    ]);
  });

  it("keeps only the newest six fiscal years, and refuses a body that is not a companyfacts document", () => {
    const many = Array.from({ length: 9 }, (_, i) => fact({ start: `${2016 + i}-01-01`, end: `${2016 + i}-12-31`, val: i }));
    expect(parseAnnualCapex(doc({ PaymentsToAcquirePropertyPlantAndEquipment: many }), NOW).map((y) => y.fiscal_year)).toEqual([2024, 2023, 2022, 2021, 2020, 2019]);
    expect(parseAnnualCapex(doc({}), NOW)).toEqual([]);
    expect(() => parseAnnualCapex("<html>", NOW)).toThrow();
  });

  it("a fact dated in year 9999, after the fetch or on a day that does not exist is skipped alone; NVIDIA's real years stay", () => {
    const body = recorded("0001045810") as { facts: { "us-gaap": Record<string, { units: { USD: Record<string, unknown>[] } }> } };
    const before = parseAnnualCapex(body, NOW);
    const usd = body.facts["us-gaap"][before[0]!.concept]!.units.USD;
    // Copies of the newest annual fact, each with one bad date.
    const annual = usd.find((f) => f["accn"] === before[0]!.accession_number && f["end"] === before[0]!.period_end)!;
    usd.push(
      { ...annual, start: "9998-01-01", end: "9998-12-31", filed: "9999-02-01", accn: "0001045810-99-000001" },
      { ...annual, start: "2026-01-01", end: "2026-12-31", filed: "2027-02-01", accn: "0001045810-27-000001" },
      { ...annual, start: "2025-02-30", end: "2026-02-28", accn: "0001045810-26-000999" },
    );
    expect(parseAnnualCapex(body, NOW)).toEqual(before);
  });

  it("fiscalYearOf() and companyFactsUrl()", () => {
    expect(fiscalYearOf("2024-07-01", "2025-06-30")).toBe(2024);
    expect(fiscalYearOf("2025-01-27", "2026-01-25")).toBe(2025);
    expect(companyFactsUrl("0001045810")).toBe("https://data.sec.gov/api/xbrl/companyfacts/CIK0001045810.json");
  });
});
