import { describe, expect, it } from "vitest";
import { modelMigration, type MigrationInput, type ModelFacts } from "./model-migration.ts";
import type { DeprecationEntry } from "../../pipelines/contract/snapshots/model-deprecations.ts";

const TODAY = "2026-06-01";
const entry = (model: string, status: DeprecationEntry["status"], sunset_date: string | null, replacement: string | null = null): DeprecationEntry => ({
  provider: "acme", model, status, announced_date: "2026-01-01", sunset_date, replacement, source: "https://acme.example/deprecations", checked: "2026-05-30",
});
const fact = (id: string, blended: number | null, capability: number | null): [string, ModelFacts] => [id.toLowerCase(), { id, name: `${id} name`, blended, capability }];
const facts = new Map([fact("old-1", 10, 40), fact("new-1", 5, 50), fact("free-old", 0, 30), fact("Plain-2", 2, 35)]);
const run = (model: string, deprecations: DeprecationEntry[], deadline?: string, f = facts) =>
  modelMigration({ model, deadline, today: TODAY, deprecations, facts: f } satisfies MigrationInput);

describe("model migration verdict", () => {
  it("retired or sunsetting within 30 days: MIGRATE_NOW, with the named successor and its deltas", () => {
    const m = run("old-1", [entry("old-1", "deprecated", "2026-06-20", "new-1")]);
    expect(m.verdict).toBe("MIGRATE_NOW");
    expect(m.model).toEqual({ id: "old-1", name: "old-1 name", cost_blended_per_1m: 10, capability_index: 40 });
    expect(m.successor).toEqual({ id: "new-1", name: "new-1 name", cost_blended_per_1m: 5, capability_index: 50 });
    expect(m.deltas).toEqual({ cost_blended_per_1m: -5, cost_pct: -50, capability_index: 10 });
    expect(m.sunset).toMatchObject({ status: "deprecated", sunset_date: "2026-06-20", days_from_now: 19 });
    expect(m.recommendation).toMatch(/migrate now.*new-1/);
    expect(run("old-1", [entry("old-1", "retired", "2026-01-01")]).verdict).toBe("MIGRATE_NOW");
    expect(run("old-1", [entry("old-1", "announced", "2026-07-01")]).verdict).toBe("MIGRATE_NOW"); // exactly 30 days
  });

  it("within 180 days, deprecated without a date, or before the deadline: MIGRATE_SOON", () => {
    expect(run("old-1", [entry("old-1", "announced", "2026-07-02")]).verdict).toBe("MIGRATE_SOON");
    expect(run("old-1", [entry("old-1", "announced", "2026-11-28")]).verdict).toBe("MIGRATE_SOON"); // 180 days
    expect(run("old-1", [entry("old-1", "deprecated", null)]).verdict).toBe("MIGRATE_SOON");
    const late = run("old-1", [entry("old-1", "announced", "2027-06-01")], "2027-06-01");
    expect(late.verdict).toBe("MIGRATE_SOON");
    expect(late.deadline).toEqual({ date: "2027-06-01", days_from_now: 365, sunset_before_deadline: true });
  });

  it("a sunset beyond the windows and the deadline, an announced model without a date, or no entry: NO_ACTION", () => {
    const far = run("old-1", [entry("old-1", "announced", "2027-06-01")], "2027-01-01");
    expect(far.verdict).toBe("NO_ACTION");
    expect(far.deadline.sunset_before_deadline).toBe(false);
    expect(run("old-1", [entry("old-1", "announced", null)]).verdict).toBe("NO_ACTION");
    const plain = run("plain-2", [], "2026-12-01");
    expect(plain).toMatchObject({ tracked: true, verdict: "NO_ACTION", successor: null, deltas: null, model: { id: "Plain-2", cost_blended_per_1m: 2 } });
    expect(plain.deadline).toEqual({ date: "2026-12-01", days_from_now: 183, sunset_before_deadline: false });
    expect(plain.recommendation).toMatch(/no announced deprecation/);
  });

  it("a model in no source is untracked, NO_ACTION with null figures", () => {
    const m = run("ghost", [entry("old-1", "retired", "2026-01-01")]);
    expect(m).toMatchObject({ tracked: false, verdict: "NO_ACTION", model: { id: "ghost", name: null, cost_blended_per_1m: null, capability_index: null }, successor: null });
    expect(m.deadline).toEqual({ date: null, days_from_now: null, sunset_before_deadline: null });
    expect(m.recommendation).toMatch(/in no source/);
  });

  it("a model only in the calendar is tracked; an unpriced successor or a free model leaves the deltas null", () => {
    const m = run("cal-only", [entry("cal-only", "retired", "2026-01-01", "unknown-next")]);
    expect(m.tracked).toBe(true);
    expect(m.successor).toEqual({ id: "unknown-next", name: null, cost_blended_per_1m: null, capability_index: null });
    expect(m.deltas).toEqual({ cost_blended_per_1m: null, cost_pct: null, capability_index: null });
    const free = run("free-old", [entry("free-old", "retired", "2026-01-01", "new-1")]);
    expect(free.deltas).toEqual({ cost_blended_per_1m: 5, cost_pct: null, capability_index: 20 });
  });

  it("ids match case-insensitively; the earliest sunset wins when two providers list the model", () => {
    const m = run("OLD-1", [entry("old-1", "announced", "2027-01-01"), { ...entry("old-1", "deprecated", "2026-06-10"), provider: "other" }]);
    expect(m.verdict).toBe("MIGRATE_NOW");
    expect(m.model.id).toBe("old-1");
  });
});
