import { describe, expect, it } from "vitest";
import {
  categoryOf,
  comparePassages,
  type DeltaPassage,
  figureAmount,
  figures,
  guidanceChanges,
  matchPassages,
  materialitySummary,
  materialMove,
  newHighSignalTerms,
  QUOTE_CHARS,
  rewriteShare,
  sentences,
} from "./guidance-delta.ts";

const risk = (heading: string, text: string, group: string | null = null): DeltaPassage => ({ section: "risk_factors", group, heading, text });
const SUPPLY = "Dependency on third-party suppliers could harm our results.";
const SUPPLY_TEXT = "We rely on foundries to manufacture our wafers. Capacity is limited.\nLead times are long.";

describe("sentences() and figures()", () => {
  it("splits on sentence ends and paragraph breaks, and keeps figures other than years and dates", () => {
    expect(sentences("One risk. Two risks; three.\nFour; Five")).toEqual(["One risk.", "Two risks; three.", "Four;", "Five"]);
    expect(figures("In fiscal year 2025, Customer A was 12% of revenue, or $15.6 billion, as of January 26, 2025.")).toEqual(["12%", "$15.6 billion"]);
    expect(figures("No figure here in 2024.")).toEqual([]);
  });

  it("figureAmount() scales currency and marks percentages; materialMove() applies 25 % and 5 points", () => {
    expect(figureAmount("$1.5 billion")).toEqual({ amount: 1.5e9, percent: false });
    expect(figureAmount("3,700")).toEqual({ amount: 3700, percent: false });
    expect(figureAmount("12 percent")).toEqual({ amount: 12, percent: true });
    expect(figureAmount("n/a")).toBeNull();
    expect(materialMove("13%", "19%")).toBe(true); // 6 points
    expect(materialMove("56%", "53%")).toBe(false); // 3 points, 5 % relative
    expect(materialMove("$8.0 billion", "$10.0 billion")).toBe(false); // 20 %
    expect(materialMove("$8.0 billion", "$11.0 billion")).toBe(true); // 27 %
    expect(materialMove("x", "1")).toBe(false);
  });
});

describe("matchPassages()", () => {
  it("pairs equal headings first, then similar ones, and leaves the rest added or removed", () => {
    const prior = [risk("Competition could hurt us.", "Rivals."), risk(SUPPLY, SUPPLY_TEXT), risk("Our indebtedness could hurt us.", "Notes due.")];
    const current = [risk("COMPETITION could hurt us", "Rivals."), risk("Dependency on third-party suppliers and partners could harm our results.", SUPPLY_TEXT), risk("AI regulation may restrict us.", "New laws.")];
    expect(matchPassages(prior, current)).toEqual({ pairs: [[0, 0], [1, 1]], added: [2], removed: [2] });
  });

  it("matches a notice or outlook by its section alone, never across sections", () => {
    const notice = (heading: string): DeltaPassage => ({ section: "forward_looking_statements", group: null, heading, text: "Statements." });
    expect(matchPassages([notice("Forward-Looking Statements")], [notice("Note About Forward-Looking Statements")]).pairs).toEqual([[0, 0]]);
    expect(matchPassages([notice("Risks")], [risk("Risks", "Statements.")])).toEqual({ pairs: [], added: [0], removed: [0] });
  });
});

describe("comparePassages()", () => {
  it("returns null for the same words (case, spacing and punctuation aside)", () => {
    expect(comparePassages(risk(SUPPLY, SUPPLY_TEXT), risk(SUPPLY.toUpperCase(), SUPPLY_TEXT.replace(/\./g, " .")))).toBeNull();
  });

  it("calls a roll-forward of years and dates boilerplate", () => {
    const change = comparePassages(risk(SUPPLY, "As of January 28, 2024, we had 5 suppliers in fiscal year 2024."), risk(SUPPLY, "As of January 26, 2025, we had 5 suppliers in fiscal year 2025."));
    expect(change).toMatchObject({ change_type: "modified", materiality: "boilerplate", direction: "neutral", prior_value: null, current_value: null });
    expect(change?.current_text).toBe("As of January 26, 2025, we had 5 suppliers in fiscal year 2025.");
  });

  it("calls a changed figure in otherwise equal text value_changed, with its direction and materiality", () => {
    const up = comparePassages(risk("Customers", "Customer A was 13% of revenue. Others were smaller."), risk("Customers", "Customer A was 19% of revenue. Others were smaller."));
    expect(up).toMatchObject({ change_type: "value_changed", prior_value: "13%", current_value: "19%", direction: "increased", materiality: "material", prior_text: "Customer A was 13% of revenue.", current_text: "Customer A was 19% of revenue." });
    const down = comparePassages(risk("Customers", "Customer A was 13% of revenue."), risk("Customers", "Customer A was 11% of revenue."));
    expect(down).toMatchObject({ change_type: "value_changed", direction: "decreased", materiality: "minor" });
  });

  it("calls a light rewording minor and a high-signal term named more often material", () => {
    const base = "We sell worldwide. Demand varies by region. Orders can be cancelled. Prices change often.";
    const light = comparePassages(risk("Sales", base), risk("Sales", base.replace("Prices change often.", "Prices change quite often.")));
    expect(light).toMatchObject({ change_type: "modified", materiality: "minor" });
    const signal = comparePassages(risk("Sales", base), risk("Sales", base.replace("Prices change often.", "Prices change often under new tariff rules.")));
    expect(signal).toMatchObject({ change_type: "modified", materiality: "material" });
    expect(newHighSignalTerms(risk("Sales", "A tariff applies."), risk("Sales", "A tariff applies."))).toEqual([]);
  });

  it("calls a rewrite of a quarter of the text material and takes its direction from risk-language terms", () => {
    const prior = risk("Supply", "We rely on partners. Our supply is stable. Costs are known.");
    const worse = comparePassages(prior, risk("Supply", "We rely on partners. Shortages could materially and adversely harm us. Losses may be significant."));
    expect(worse).toMatchObject({ change_type: "modified", materiality: "material", direction: "increased" });
    const calmer = comparePassages(risk("Supply", "Shortages could materially and adversely harm us. Costs are known."), risk("Supply", "Our supply is stable. Costs are known."));
    expect(calmer).toMatchObject({ direction: "decreased" });
    expect(rewriteShare("a b c d", "a b c d")).toBe(0);
    expect(rewriteShare("", "")).toBe(0);
    expect(rewriteShare("a b", "c d")).toBe(1);
  });

  it("quotes a changed heading with the changed sentences, capped at the quote length", () => {
    const long = `${"Word ".repeat(200)}end.`;
    const change = comparePassages(risk("Old heading about supply.", "Same text."), risk("New heading about chips and tariffs.", `Same text. ${long}`));
    expect(change?.prior_text).toBe("Old heading about supply.");
    expect(change?.current_text?.startsWith("New heading about chips and tariffs.")).toBe(true);
    expect(change!.current_text!.length).toBeLessThanOrEqual(QUOTE_CHARS);
    expect(change!.current_text!.endsWith("…")).toBe(true);
  });
});

describe("categoryOf()", () => {
  const cases: [DeltaPassage, string][] = [
    [risk("Export controls and tariffs could restrict sales to China.", "Licenses."), "export_controls_trade"],
    [risk("Dependency on suppliers could harm us.", "Foundry capacity."), "supply_chain"],
    [risk("A few customers account for much of our revenue.", "Demand."), "demand_customers"],
    [risk("Competition could reduce our market share.", "Rivals."), "competition"],
    [risk("Litigation and regulation could hurt us.", "Laws."), "regulatory_legal"],
    [risk("Cyber-attacks could disrupt us.", "A breach of data protection."), "cybersecurity_privacy"],
    [risk("Issues in the use of artificial intelligence may harm us.", "Generative models."), "ai_technology"],
    [risk("Inflation and interest rate changes may hurt results.", "Economic conditions."), "macro_financial"],
    [risk("We may lose key personnel.", "Employees."), "operations_people"],
    [risk("Something unforeseen.", "Nothing named."), "other"],
    [{ section: "outlook", group: null, heading: "Outlook", text: "Revenue." }, "guidance"],
    [{ section: "forward_looking_statements", group: null, heading: "Forward-Looking Statements", text: "May." }, "forward_looking_notice"],
  ];
  it.each(cases)("%o is %s", (passage, category) => {
    expect(categoryOf(passage)).toBe(category);
  });
});

describe("guidanceChanges() and materialitySummary()", () => {
  const prior = [risk(SUPPLY, SUPPLY_TEXT), risk("Our indebtedness could hurt us.", "Notes due in 2026."), risk("Customers", "Customer A was 13% of revenue.")];
  const current = [risk(SUPPLY, SUPPLY_TEXT), risk("New export controls may restrict our sales.", "Licenses are required."), risk("Customers", "Customer A was 14% of revenue.")];

  it("lists material changes first, then minor, each once; an identical passage is no change", () => {
    const changes = guidanceChanges(prior, current);
    expect(changes.map((c) => [c.change_type, c.materiality, c.direction])).toEqual([
      ["added", "material", "increased"],
      ["removed", "material", "decreased"],
      ["value_changed", "minor", "increased"],
    ]);
    expect(changes[0]).toMatchObject({ prior_text: null, current_text: "New export controls may restrict our sales. Licenses are required.", category: "export_controls_trade" });
    expect(changes[1]).toMatchObject({ current_text: null, topic: "Our indebtedness could hurt us." });
  });

  it("counts by materiality, category, change type and direction, with a headline for each case", () => {
    const summary = materialitySummary(guidanceChanges(prior, current), "ACME 10-K filed 2025-02-26 against 2024-02-21");
    expect(summary).toEqual({
      total_changes: 3,
      by_materiality: { material: 2, minor: 1, boilerplate: 0 },
      by_category: { export_controls_trade: 1, macro_financial: 1, demand_customers: 1 },
      by_change_type: { added: 1, removed: 1, modified: 0, value_changed: 1 },
      by_direction: { increased: 2, decreased: 1, neutral: 0 },
      headline: "ACME 10-K filed 2025-02-26 against 2024-02-21: 2 material changes (1 risk factor added, 1 removed), most in export controls trade; 1 minor, 0 boilerplate.",
    });
    expect(materialitySummary([], "ACME 10-Q").headline).toBe("ACME 10-Q: no change in risk factors, forward-looking statements or outlook.");
    const minorOnly = guidanceChanges([risk("Customers", "Customer A was 13% of revenue.")], [risk("Customers", "Customer A was 14% of revenue.")]);
    expect(materialitySummary(minorOnly, "ACME 10-K").headline).toBe("ACME 10-K: 1 change, none material (1 minor, 0 boilerplate).");
  });

  it("a removed forward-looking notice is minor; both sides empty give no change", () => {
    const notice: DeltaPassage = { section: "forward_looking_statements", group: null, heading: "Forward-Looking Statements", text: "We may." };
    expect(guidanceChanges([notice], [])).toEqual([expect.objectContaining({ change_type: "removed", materiality: "minor", category: "forward_looking_notice" })]);
    expect(guidanceChanges([], [])).toEqual([]);
  });
});
