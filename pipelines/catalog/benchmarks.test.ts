import { describe, expect, it } from "vitest";
import { benchmarks, validateBenchmarks } from "./benchmarks.ts";
import { models } from "./models.ts";

const modelIds = models.map((m) => m.id);

describe("benchmark catalog", () => {
  it("validateBenchmarks() accepts the curated catalog with the five routing benchmarks", () => {
    const ids = benchmarks.map((b) => b.id);
    for (const id of ["humaneval", "swe-bench-verified", "mmlu-pro", "gpqa-diamond", "math-500"]) {
      expect(ids).toContain(id);
    }
    for (const b of benchmarks) expect(b.scores.length, b.id).toBeGreaterThan(0);
  });

  it("every score's model id exists in the model catalog", () => {
    const known = new Set(modelIds);
    for (const b of benchmarks) {
      for (const s of b.scores) expect(known.has(s.model), `${b.id}: ${s.model}`).toBe(true);
    }
  });

  it("every score is a 0–100 percentage with a source URL and a date", () => {
    for (const b of benchmarks) {
      for (const s of b.scores) {
        expect(s.score).toBeGreaterThanOrEqual(0);
        expect(s.score).toBeLessThanOrEqual(100);
        expect(s.source).toMatch(/^https:\/\//);
        expect(s.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      }
    }
  });

  it("validateBenchmarks() rejects a score for an unknown model", () => {
    const b = benchmarks[0]!;
    const bad = { ...b, scores: [{ model: "gpt-9", score: 50, source: "https://example.org", date: "2025-01-01" }] };
    expect(() => validateBenchmarks([bad], modelIds)).toThrow(/unknown model "gpt-9"/);
  });

  it("validateBenchmarks() rejects a model scored twice, a score above 100 and duplicate ids", () => {
    const b = benchmarks[0]!;
    const s = b.scores[0]!;
    expect(() => validateBenchmarks([{ ...b, scores: [s, s] }], modelIds)).toThrow(/twice/);
    expect(() => validateBenchmarks([{ ...b, scores: [{ ...s, score: 101 }] }], modelIds)).toThrow();
    expect(() => validateBenchmarks([b, b], modelIds)).toThrow(/duplicate benchmark id/);
  });
});
