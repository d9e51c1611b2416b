import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import type { HtmlBlock } from "./html-blocks.ts";
import { htmlBlocks } from "./html-blocks.ts";
import { readFilingDocument } from "./read-document.ts";
import { filingPassages, readingBlocks, riskFactorPassages } from "./sections.ts";

const ARCHIVE = resolve(import.meta.dirname, "../../fixtures/www.sec.gov/Archives/edgar/data/1045810");
/** NVIDIA's 10-K documents as EDGAR serves them (fiscal years ending January 2025 and January 2024). */
const document = (path: string) => gunzipSync(readFileSync(resolve(ARCHIVE, `${path}.gz`))).toString("utf8");
const FY2025 = document("000104581025000023/nvda-20250126.htm");
const FY2024 = document("000104581024000029/nvda-20240128.htm");

const block = (text: string, emphasis = 0, inTable = false): HtmlBlock => ({ text, bold: emphasis, italic: 0, inTable });

describe("filingPassages() on NVIDIA's 10-K documents", () => {
  it("finds every risk factor of fiscal 2025's Item 1A under its group, after the summary bullets", () => {
    const passages = filingPassages(htmlBlocks(FY2025));
    const risks = passages.filter((p) => p.section === "risk_factors");
    expect(risks).toHaveLength(23);
    expect(risks[0]).toMatchObject({ group: "Risks Related to Our Industry and Markets", heading: "Failure to meet the evolving needs of our industry and markets may adversely impact our financial results." });
    expect(risks.at(-1)!.heading).toMatch(/^Delaware law and our certificate of incorporation, bylaws and agreement with Microsoft/);
    expect(new Set(risks.map((r) => r.group))).toEqual(
      new Set(["Risks Related to Our Industry and Markets", "Risks Related to Demand, Supply, and Manufacturing", "Risks Related to Our Global Operating Business", "Risks Related to Regulatory, Legal, Our Stock and Other Matters"]),
    );
    // No summary bullet became a risk factor of its own, and bodies carry their bullets.
    expect(risks.every((r) => !r.heading.startsWith("•"))).toBe(true);
    expect(risks[0]!.text).toContain("•timely identify industry changes");
    const notice = passages.find((p) => p.section === "forward_looking_statements");
    expect(notice?.heading).toBe("Forward-Looking Statements");
    expect(notice?.text).toMatch(/^This Annual Report on Form 10-K contains forward-looking statements/);
  });

  it("finds fiscal 2024's 24 risk factors, the indebtedness one among them, and joins paragraphs cut by a page break", () => {
    const risks = riskFactorPassages(readingBlocks(htmlBlocks(FY2024)));
    expect(risks).toHaveLength(24);
    expect(risks.map((r) => r.heading)).toContainEqual(expect.stringMatching(/^Our indebtedness could adversely affect our financial position/));
    // Page numbers and "Table of Contents" lines are gone from every body.
    for (const r of risks) expect(r.text.split("\n")).not.toContain("Table of Contents");
  });

  it("readFilingDocument() sanitizes every heading and paragraph and keeps paragraph breaks", () => {
    const passages = readFilingDocument(FY2025);
    expect(passages).toHaveLength(24);
    for (const p of passages) {
      expect(p.text).not.toMatch(/[<>]\w/);
      expect(p.text.length).toBeLessThanOrEqual(30_000);
    }
    expect(passages.some((p) => p.text.includes("\n"))).toBe(true);
  });
});

describe("readingBlocks() and riskFactorPassages() rules", () => {
  it("drops page numbers, contents links and lines repeated on five pages, and rejoins a cut paragraph", () => {
    const running = Array.from({ length: 5 }, (_, k) => [block("Acme Corp | 2025 Form 10-K"), block(`Paragraph ${k}.`)]).flat();
    const out = readingBlocks([block("The supply of wafers"), block("14"), block("Table of Contents"), block("is limited."), ...running]);
    expect(out.map((b) => b.text)).toEqual(["The supply of wafers is limited.", "Paragraph 0.", "Paragraph 1.", "Paragraph 2.", "Paragraph 3.", "Paragraph 4."]);
  });

  it("takes the longest Item 1A, skips its introduction and summary, and stops at the next item", () => {
    const blocks = [
      block("Item 1A. Risk Factors", 1, true),
      block("Item 1A. Risk Factors", 1),
      block("Investing in us is risky."),
      block("Risk Factors Summary", 1),
      block("• Competition could harm us."),
      block("Risks Related to Markets", 1),
      block("Competition could harm us.", 1),
      block("Rivals are many."),
      block("General Risks", 1),
      block("Our stock may be volatile.", 1),
      block("Prices move."),
      block("Item 1B. Unresolved Staff Comments", 1),
      block("None.", 1),
      block("After the section."),
    ];
    expect(riskFactorPassages(blocks)).toEqual([
      { section: "risk_factors", group: "Risks Related to Markets", heading: "Competition could harm us.", text: "Rivals are many." },
      { section: "risk_factors", group: "General Risks", heading: "Our stock may be volatile.", text: "Prices move." },
    ]);
    expect(riskFactorPassages([block("Item 1A. Risk Factors 12", 0, true)])).toEqual([]);
  });

  it("reads an outlook under its heading, up to the next heading", () => {
    const passages = filingPassages([block("Outlook", 1), block("We expect revenue to be $54.0 billion, plus or minus 2%."), block("Results of Operations", 1), block("Revenue grew.")]);
    expect(passages).toEqual([{ section: "outlook", group: null, heading: "Outlook", text: "We expect revenue to be $54.0 billion, plus or minus 2%." }]);
  });
});
