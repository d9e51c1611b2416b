import { describe, expect, it } from "vitest";
import { modelhubVelocity, TOP_SIZE, type HubGainer, type HubKind, type HubKindDay, type HubMove } from "./modelhub-velocity.ts";
import { resolveRange } from "./history-range.ts";

const range = (from: string, to: string) => resolveRange({ from, to }, new Date(`${to}T12:00:00Z`));

const listed = (date: string, kind: HubKind, prev: string | null, count = 30): HubKindDay => ({ date, kind, prev, count });
const allListed = (date: string, prev: string | null) => (["model", "dataset", "space"] as const).map((k) => listed(date, k, prev));
const kept = (date: string, kind: HubKind, id: string, value: number, delta: number, n = 30): HubMove => ({ date, kind, change: "kept", id, value, delta, n });
const moved = (date: string, kind: HubKind, change: "entered" | "exited", id: string, n: number): HubMove => ({ date, kind, change, id, value: null, delta: null, n });

describe("modelhubVelocity()", () => {
  it("modelhubVelocity() gives one point per day; a day without capture has has_data false and null figures", () => {
    const v = modelhubVelocity({ range: range("2026-05-01", "2026-05-03"), days: [...allListed("2026-05-01", "2026-04-30"), ...allListed("2026-05-03", "2026-05-01")], moves: [], gainers: [] });
    expect(v.points.map((p) => p.has_data)).toEqual([true, false, true]);
    expect(v.points[1]).toEqual({
      date: "2026-05-02",
      model_count: null,
      dataset_count: null,
      space_count: null,
      models_entered: null,
      models_exited: null,
      datasets_entered: null,
      datasets_exited: null,
      top_models_by_download_delta: null,
      top_datasets_by_download_delta: null,
      top_spaces_by_likes_delta: null,
      has_data: false,
    });
    // Compared and nothing moved: true zeros and empty lists.
    expect(v.points[2]).toMatchObject({ model_count: 30, models_entered: 0, models_exited: 0, top_models_by_download_delta: [], top_spaces_by_likes_delta: [] });
    expect(v.notes).toContain("1 of 3 days have no capture: has_data is false and their figures are null.");
  });

  it("modelhubVelocity() leaves entered, exited and deltas null on the first capture (no prior day)", () => {
    const v = modelhubVelocity({
      range: range("2026-05-01", "2026-05-02"),
      days: [...allListed("2026-05-01", null), ...allListed("2026-05-02", "2026-05-01")],
      moves: [moved("2026-05-02", "model", "entered", "new/one", 1), moved("2026-05-02", "model", "exited", "old/one", 1), kept("2026-05-02", "model", "a/b", 1200, 200, 29)],
      gainers: [],
    });
    expect(v.points[0]).toMatchObject({ has_data: true, model_count: 30, models_entered: null, models_exited: null, top_models_by_download_delta: null, top_spaces_by_likes_delta: null });
    expect(v.points[1]).toMatchObject({ models_entered: 1, models_exited: 1, datasets_entered: 0, top_models_by_download_delta: [{ id: "a/b", downloads: 1200, download_delta: 200 }] });
    expect(v.notes.some((n) => n.includes("null on 2026-05-01"))).toBe(true);
  });

  it("modelhubVelocity() keeps a failed listing's figures null while the others are served", () => {
    const v = modelhubVelocity({
      range: range("2026-05-02", "2026-05-02"),
      days: [listed("2026-05-02", "model", "2026-05-01"), listed("2026-05-02", "space", "2026-05-01", 29)],
      moves: [kept("2026-05-02", "space", "s/one", 900, -3)],
      gainers: [],
    });
    expect(v.points[0]).toMatchObject({ has_data: true, model_count: 30, dataset_count: null, space_count: 29, datasets_entered: null, top_datasets_by_download_delta: null });
    expect(v.points[0]!.top_spaces_by_likes_delta).toEqual([{ id: "s/one", likes: 900, likes_delta: -3 }]);
    expect(v.notes).toContain("A listing failed on 2026-05-02: its figures are null that day.");
  });

  it("modelhubVelocity() orders each day's deltas largest first and keeps TOP_SIZE", () => {
    const deltas = [5, 50, -10, 50, 7, 1, 30];
    const v = modelhubVelocity({
      range: range("2026-05-02", "2026-05-02"),
      days: allListed("2026-05-02", "2026-05-01"),
      moves: deltas.map((d, i) => kept("2026-05-02", "dataset", `d/${i}`, 1000 + d, d)),
      gainers: [],
    });
    expect(v.points[0]!.top_datasets_by_download_delta!.map((d) => [d.id, d.download_delta])).toEqual([
      ["d/1", 50],
      ["d/3", 50],
      ["d/6", 30],
      ["d/4", 7],
      ["d/0", 5],
    ]);
    expect(v.points[0]!.top_datasets_by_download_delta).toHaveLength(TOP_SIZE);
  });

  it("modelhubVelocity() ranks window gainers per kind and gives the model count at both ends", () => {
    const g = (kind: "model" | "dataset", id: string, download_delta: number): HubGainer => ({ kind, id, downloads: 10_000, download_delta, days: 2 });
    const v = modelhubVelocity({
      range: range("2026-05-01", "2026-05-04"),
      days: [listed("2026-05-02", "model", null, 28), listed("2026-05-03", "model", "2026-05-02", 30)],
      moves: [],
      gainers: [g("model", "m/a", 10), g("model", "m/b", 300), g("dataset", "d/a", 40)],
    });
    expect(v.window).toEqual({
      top_model_gainers: [
        { id: "m/b", downloads: 10_000, download_delta: 300, days: 2 },
        { id: "m/a", downloads: 10_000, download_delta: 10, days: 2 },
      ],
      top_dataset_gainers: [{ id: "d/a", downloads: 10_000, download_delta: 40, days: 2 }],
      model_count_start: 28,
      model_count_end: 30,
    });
  });

  it("modelhubVelocity() over a window without any capture has every figure null and says so", () => {
    const v = modelhubVelocity({ range: range("2026-05-01", "2026-05-02"), days: [], moves: [], gainers: [] });
    expect(v.points.every((p) => !p.has_data && p.model_count === null && p.top_models_by_download_delta === null)).toBe(true);
    expect(v.window).toEqual({ top_model_gainers: [], top_dataset_gainers: [], model_count_start: null, model_count_end: null });
    expect(v.notes.at(-1)).toBe("No day in the window has a capture of the model hub listings.");
  });
});
