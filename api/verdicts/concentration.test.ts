import { describe, expect, it } from "vitest";
import { concentrationVerdict, type TrackedProvider } from "./concentration.ts";

const t = (provider: string, rank: number | null, score: number | null, current_status = "operational", incident_hours: number | null = 0): TrackedProvider => ({
  provider, rank, reliability_score: score, current_status, incident_hours,
});
const tracked = [t("a", 1, 98), t("b", 2, 95), t("c", 3, 92), t("d", 4, 90), t("e", 5, 85, "degraded"), t("f", 6, 60), t("g", null, null, "down")];
const judge = (...ids: (string | null)[]) => concentrationVerdict({ listed: ids.map((id) => ({ asked: id ?? "nobody", id })), tracked, incidentDays: 7 });

describe("concentration verdict", () => {
  it("RESILIENT: two or more listed providers, all operational, reliable and quiet; suggests the best others", () => {
    const v = judge("a", "b");
    expect(v).toMatchObject({ verdict_kind: "dependency_concentration", verdict: "RESILIENT", provider_count: 2, single_point_of_failure: false, currently_impaired: [], untracked: [] });
    expect(v.weakest_link).toEqual({ provider: "b", reliability_score: 95, current_status: "operational" });
    expect(v.diversification.suggested).toEqual([
      { provider: "c", reliability_score: 92, rank: 3 },
      { provider: "d", reliability_score: 90, rank: 4 },
      { provider: "f", reliability_score: 60, rank: 6 },
    ]);
  });

  it("EXPOSED: a listed provider is degraded, and it is the weakest link", () => {
    const v = judge("a", "e");
    expect(v.verdict).toBe("EXPOSED");
    expect(v.currently_impaired).toEqual([{ provider: "e", status: "degraded" }]);
    expect(v.weakest_link?.provider).toBe("e");
    expect(v.recommendation).toContain("e is degraded");
  });

  it("EXPOSED: a listed provider scores below the floor", () => {
    const v = judge("a", "f");
    expect(v.verdict).toBe("EXPOSED");
    expect(v.weakest_link).toEqual({ provider: "f", reliability_score: 60, current_status: "operational" });
  });

  it("EXPOSED: a listed provider had many incident hours", () => {
    const v = concentrationVerdict({ listed: [{ asked: "a", id: "a" }, { asked: "b", id: "b" }], tracked: [t("a", 1, 98), t("b", 2, 95, "operational", 30)], incidentDays: 7 });
    expect(v.verdict).toBe("EXPOSED");
    expect(v.recommendation).toContain("incident hours");
  });

  it("EXPOSED: a listed provider's status is unknown", () => {
    const v = concentrationVerdict({ listed: ["a", "u"].map((id) => ({ asked: id, id })), tracked: [t("a", 1, 98), t("u", 2, 97, "unknown")], incidentDays: 7 });
    expect(v).toMatchObject({ verdict: "EXPOSED", single_point_of_failure: false, currently_impaired: [] });
    expect(v.recommendation).toContain("u has no readable status page");
  });

  it("CRITICAL: one provider is a single point of failure", () => {
    const v = judge("a");
    expect(v).toMatchObject({ verdict: "CRITICAL", single_point_of_failure: true, provider_count: 1 });
    expect(v.recommendation).toContain("depends on a alone");
  });

  it("CRITICAL: with one of two down, the other is a single point of failure", () => {
    const v = judge("a", "g");
    expect(v).toMatchObject({ verdict: "CRITICAL", single_point_of_failure: true, currently_impaired: [{ provider: "g", status: "down" }] });
    expect(v.weakest_link).toEqual({ provider: "g", reliability_score: null, current_status: "down" });
  });

  it("CRITICAL: none listed is fully operational", () => {
    const v = concentrationVerdict({ listed: ["x", "y"].map((id) => ({ asked: id, id })), tracked: [t("x", 1, 90, "degraded"), t("y", 2, 90, "degraded")], incidentDays: 7 });
    expect(v).toMatchObject({ verdict: "CRITICAL", single_point_of_failure: false });
  });

  it("counts a provider listed twice (by two aliases) once and reports names it does not track", () => {
    const v = concentrationVerdict({ listed: [{ asked: "A", id: "a" }, { asked: "alias-of-a", id: "a" }, { asked: "b", id: "b" }, { asked: "mystery", id: null }, { asked: "known-not-tracked", id: "zz" }], tracked, incidentDays: 7 });
    expect(v.provider_count).toBe(2);
    expect(v.untracked).toEqual(["mystery", "known-not-tracked"]);
  });

  it("no listed provider tracked: no verdict, still suggestions", () => {
    const v = judge(null);
    expect(v).toMatchObject({ verdict: null, provider_count: 0, weakest_link: null, untracked: ["nobody"] });
    expect(v.diversification.suggested.map((s) => s.provider)).toEqual(["a", "b", "c"]);
  });

  it("empty tracking data: nothing tracked, nothing suggested", () => {
    const v = concentrationVerdict({ listed: [{ asked: "a", id: "a" }], tracked: [], incidentDays: 7 });
    expect(v).toMatchObject({ verdict: null, diversification: { suggested: [] } });
  });

  it("ties on status and score fall to incident hours then id for the weakest link", () => {
    const v = concentrationVerdict({ listed: ["p", "q", "r"].map((id) => ({ asked: id, id })), tracked: [t("p", 1, 90, "operational", 1), t("q", 2, 90, "operational", 5), t("r", 3, 90)], incidentDays: 7 });
    expect(v.weakest_link?.provider).toBe("q");
  });
});
