import { describe, expect, it } from "vitest";
import { newMajor, stackDrift, type ModelDrift, type PackageDrift, type ProtocolDrift } from "./stack-drift.ts";

const NOW = new Date("2026-11-24T12:00:00Z");
const model = (id: string | null, extra: Partial<ModelDrift> = {}): ModelDrift => ({ asked: id ?? "mystery-model", id, deprecation: null, price: null, ...extra });
const pkg = (name: string, extra: Partial<PackageDrift> = {}): PackageDrift => ({ asked: name, ecosystem: "npm", name, tracked: true, latest_from: "1.0.0", latest_to: "1.0.0", new_advisories: [], ...extra });
const proto = (id: string | null, tags: string[] = []): ProtocolDrift => ({ asked: id ?? "soap", id, name: id ?? "soap", releases: tags.map((t, i) => ({ tag: t, published_at: `2026-11-1${i}T00:00:00.000Z`, url: `https://example.org/${t}` })) });
const drift = (models: ModelDrift[], packages: PackageDrift[] = [], protocols: ProtocolDrift[] = [], sinceDays = 14) => stackDrift({ now: NOW, sinceDays, models, packages, protocols });
const adv = (severity: "critical" | "high" | "medium" | "low" | "unknown", affects_latest: boolean, kind: "vulnerability" | "malicious" = "vulnerability") => ({ id: `A-${severity}`, cve_ids: ["CVE-2026-0001"], kind, severity, published: "2026-11-20T00:00:00.000Z", affects_latest });

describe("stackDrift()", () => {
  it("STABLE with nothing changed; the window ends today", () => {
    const v = drift([model("gpt-x")], [pkg("express")], [proto("mcp")]);
    expect(v).toMatchObject({ verdict: "STABLE", findings: [], window: { since_days: 14, from: "2026-11-10", to: "2026-11-24" }, counts: { total: 0, assessed: 3 }, untracked: [] });
  });

  it("models: retired or imminent sunset is high, deprecated is medium; prices up ≥10% medium, up low, down info", () => {
    const v = drift([
      model("old", { deprecation: { status: "retired", sunset_date: "2026-01-01", replacement: "new" } }),
      model("soon", { deprecation: { status: "deprecated", sunset_date: "2026-12-10", replacement: null } }),
      model("later", { deprecation: { status: "deprecated", sunset_date: "2027-06-01", replacement: "next" } }),
      model("up", { price: { from_blended: 1, to_blended: 1.2, from_date: "2026-11-10", to_date: "2026-11-24" } }),
      model("nudge", { price: { from_blended: 1, to_blended: 1.05, from_date: "2026-11-10", to_date: "2026-11-24" } }),
      model("down", { price: { from_blended: 2, to_blended: 1, from_date: "2026-11-10", to_date: "2026-11-24" } }),
    ]);
    const by = Object.fromEntries(v.findings.map((f) => [f.subject, [f.signal, f.break_risk]]));
    expect(by).toEqual({ old: ["deprecation_imminent", "high"], soon: ["deprecation_imminent", "high"], later: ["deprecated", "medium"], up: ["price_increase", "medium"], nudge: ["price_increase", "low"], down: ["price_decrease", "info"] });
    expect(v.verdict).toBe("ACTION_NEEDED");
    expect(v.findings[0]!.break_risk).toBe("high");
  });

  it("models: counts calendar days to the sunset, the same at any time of the day", () => {
    const at = (iso: string, sunset: string) =>
      stackDrift({ now: new Date(iso), sinceDays: 14, models: [model("m", { deprecation: { status: "deprecated", sunset_date: sunset, replacement: null } })], packages: [], protocols: [] }).findings[0]!;
    // 31 calendar days ahead: beyond the 30 imminent days at midnight and at noon alike.
    expect([at("2026-11-23T00:00:00.000Z", "2026-12-24").break_risk, at("2026-11-23T12:00:00Z", "2026-12-24").break_risk]).toEqual(["medium", "medium"]);
    expect(at("2026-11-23T12:00:00Z", "2026-12-23").detail).toBe("m shuts down on 2026-12-23 (30 days).");
    expect(at("2026-11-23T12:00:00Z", "2026-11-24").detail).toBe("m shuts down on 2026-11-24 (1 day).");
    expect(at("2026-11-24T12:00:00Z", "2026-11-24").detail).toBe("m shuts down today (2026-11-24).");
    expect(at("2026-11-25T00:00:00Z", "2026-11-24").detail).toBe("m was shut down on 2026-11-24.");
  });

  it("packages: malicious and affecting critical/high are high, unaffecting high medium, medium low, low info", () => {
    const v = drift([], [
      pkg("a", { new_advisories: [adv("critical", true)] }),
      pkg("b", { new_advisories: [adv("high", false)] }),
      pkg("c", { new_advisories: [adv("medium", true)] }),
      pkg("d", { new_advisories: [adv("low", true)] }),
      pkg("e", { new_advisories: [adv("critical", false, "malicious")] }),
    ]);
    const risks = Object.fromEntries(v.findings.map((f) => [f.subject, f.break_risk]));
    expect(risks).toEqual({ "npm:a": "high", "npm:b": "medium", "npm:c": "low", "npm:d": "info", "npm:e": "high" });
    expect(v.counts).toMatchObject({ high: 2, medium: 1, low: 1, info: 1, total: 5, assessed: 5 });
  });

  it("packages: a new major line is medium (WATCH), a newer release in the line is info; PyPI majors by release segment", () => {
    expect(drift([], [pkg("express", { latest_from: "4.21.2", latest_to: "5.1.0" })]).findings[0]).toMatchObject({ signal: "new_major_release", break_risk: "medium" });
    expect(drift([], [pkg("express", { latest_from: "4.21.2", latest_to: "5.1.0" })]).verdict).toBe("WATCH");
    expect(drift([], [pkg("express", { latest_from: "5.0.0", latest_to: "5.1.0" })]).findings[0]).toMatchObject({ signal: "new_release", break_risk: "info" });
    expect(newMajor("PyPI", "2.9.1", "3.0.0rc1")).toBe(true);
    expect(newMajor("PyPI", "2024.1", "2024.12")).toBe(false);
    expect(newMajor("npm", "5.1.0", "4.0.0")).toBe(false);
    expect(drift([], [pkg("express", { latest_from: "5.1.0", latest_to: "4.0.0" })]).findings).toEqual([]);
  });

  it("protocols: one medium finding per release in the window, newest first; untracked names are listed, not assessed", () => {
    const v = drift([model(null)], [pkg("left-pad", { tracked: false })], [proto("mcp", ["2026-11-10", "2026-11-20"]), proto(null)]);
    expect(v.findings.map((f) => [f.subject, f.signal, f.break_risk])).toEqual([
      ["mcp", "new_protocol_release", "medium"],
      ["mcp", "new_protocol_release", "medium"],
    ]);
    expect(v.findings[0]!.detail).toMatch(/2026-11-20/);
    expect(v.untracked).toEqual(["mystery-model", "left-pad", "soap"]);
    expect(v.counts.assessed).toBe(1);
  });

  it("nothing tracked: assessed 0, STABLE", () => {
    expect(drift([model(null)], [], [proto(null)]).counts.assessed).toBe(0);
  });
});
