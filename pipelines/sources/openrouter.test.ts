import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { testSource } from "../lib/testing/contract.ts";
import { OPENROUTER_MODELS_URL, OpenRouterParseError, openrouter, perTokenToPer1M } from "./openrouter.ts";

const FIXTURE = "pipelines/fixtures/openrouter.ai/api/v1/models/index";

testSource(openrouter, [{ fixture: FIXTURE, url: OPENROUTER_MODELS_URL, meta: undefined, minRows: 40 }]);

const NOW = new Date("2026-11-22T14:00:00Z");

const rowsOf = (body: unknown, now = NOW) =>
  openrouter.normalize(openrouter.parse(JSON.stringify(body)), { now });

describe("perTokenToPer1M()", () => {
  it("perTokenToPer1M() shifts decimal strings exactly", () => {
    expect(perTokenToPer1M("0.0000025")).toBe(2.5);
    expect(perTokenToPer1M("0.000015")).toBe(15);
    expect(perTokenToPer1M("0.00000015")).toBe(0.15);
    expect(perTokenToPer1M("0.0000000375")).toBe(0.0375);
    expect(perTokenToPer1M("0.00000007")).toBe(0.07);
    expect(perTokenToPer1M("0.00015")).toBe(150);
    expect(perTokenToPer1M("1")).toBe(1_000_000);
  });

  it("perTokenToPer1M() avoids float noise where multiplying would not", () => {
    expect(Number("0.00000218") * 1e6).not.toBe(2.18);
    expect(perTokenToPer1M("0.00000218")).toBe(2.18);
    expect(Number("0.000000138") * 1e6).not.toBe(0.138);
    expect(perTokenToPer1M("0.000000138")).toBe(0.138);
    expect(perTokenToPer1M(0.00000218)).toBe(2.18);
    expect(perTokenToPer1M("2.18e-6")).toBe(2.18);
  });

  it("perTokenToPer1M() keeps free as 0 and rejects variable or bad prices", () => {
    expect(perTokenToPer1M("0")).toBe(0);
    expect(perTokenToPer1M("-1")).toBeNull();
    expect(perTokenToPer1M("")).toBeNull();
    expect(perTokenToPer1M("abc")).toBeNull();
    expect(perTokenToPer1M(undefined)).toBeNull();
    expect(perTokenToPer1M(null)).toBeNull();
  });

  it("perTokenToPer1M() rounds to 6 decimals", () => {
    expect(perTokenToPer1M("0.0000000000001")).toBe(0);
    expect(perTokenToPer1M("0.0000012345678")).toBe(1.234568);
  });
});

describe("openrouter.parse()", () => {
  it("parse() throws a named error on a body that is not JSON", () => {
    expect(() => openrouter.parse("<html>rate limited</html>")).toThrow(OpenRouterParseError);
  });

  it("parse() throws when data[] is absent", () => {
    expect(() => openrouter.parse(JSON.stringify({ error: { code: 500 } }))).toThrow(/data\[\]/);
  });

  it("parse() keeps an entry whose name is null; normalize() names it by its id", () => {
    const parsed = openrouter.parse(JSON.stringify({ data: [{ id: "a/b", name: null }, { id: "c/d", name: "\u202E\u0007" }] }));
    expect(parsed.skipped).toBe(0);
    expect(openrouter.normalize(parsed, { now: new Date("2026-11-22T00:00:00Z") }).map((r) => r.name)).toEqual(["a/b", "c/d"]);
  });

  it("parse() skips entries without an id and keeps the rest", () => {
    const parsed = openrouter.parse(JSON.stringify({ data: [{ name: "no id" }, { id: "a/b" }, 42] }));
    expect(parsed.skipped).toBe(2);
    expect(parsed.models.map((m) => m.id)).toEqual(["a/b"]);
  });
});

describe("openrouter.normalize()", () => {
  it("normalize() maps prices, context, max output, modalities and created date", () => {
    const [row] = rowsOf({
      data: [
        {
          id: "openai/gpt-4o",
          name: "OpenAI: GPT-4o",
          created: 1715558400,
          context_length: 128000,
          architecture: { modality: "text+image->text", input_modalities: ["text", "image", "file"], output_modalities: ["text"] },
          pricing: { prompt: "0.0000025", completion: "0.00001", request: "0" },
          top_provider: { context_length: 128000, max_completion_tokens: 16384, is_moderated: true },
          extra_field: { anything: true },
        },
      ],
    });
    expect(row).toEqual({
      aggregatorId: "openai/gpt-4o",
      name: "OpenAI: GPT-4o",
      created: "2024-05-13",
      contextWindow: 128000,
      maxOutput: 16384,
      inputPer1M: 2.5,
      outputPer1M: 10,
      inputModalities: ["file", "image", "text"],
      outputModalities: ["text"],
    });
  });

  it("normalize() gives null prices for the -1 of a router and tolerates missing blocks", () => {
    const [auto, bare] = rowsOf({
      data: [
        { id: "openrouter/auto", name: "Auto Router", context_length: 2000000, pricing: { prompt: "-1", completion: "-1" } },
        { id: "x/bare" },
      ],
    });
    expect(auto?.inputPer1M).toBeNull();
    expect(auto?.outputPer1M).toBeNull();
    expect(bare).toMatchObject({ name: "x/bare", created: null, contextWindow: null, maxOutput: null, inputPer1M: null });
  });

  it("normalize() reads the recorded fixture's free and router entries", () => {
    const rows = openrouter.normalize(openrouter.parse(readFileSync(FIXTURE, "utf8")), { now: NOW });
    const byId = new Map(rows.map((r) => [r.aggregatorId, r]));
    expect(byId.get("deepseek/deepseek-r1:free")).toMatchObject({ inputPer1M: 0, outputPer1M: 0 });
    expect(byId.get("openrouter/auto")).toMatchObject({ inputPer1M: null, outputPer1M: null });
    expect(byId.get("anthropic/claude-opus-4")).toMatchObject({ inputPer1M: 15, outputPer1M: 75, maxOutput: 32000 });
  });

  it("normalize() nulls only the bad entry's created date: microseconds, milliseconds, far future, before 1990", () => {
    const fixture = JSON.parse(readFileSync(FIXTURE, "utf8")) as { data: Record<string, unknown>[] };
    const good = fixture.data.slice(0, 3);
    const bad = [
      { ...good[0], id: "bad/micro", created: 1763856000000000 },
      { ...good[0], id: "bad/milli", created: 1763856000000 },
      { ...good[0], id: "bad/future", created: NOW.getTime() / 1000 + 2 * 86_400 },
      { ...good[0], id: "bad/old", created: 500_000_000 },
    ];
    const rows = rowsOf({ data: [good[0], ...bad, ...good.slice(1)] });
    expect(rows.map((r) => r.aggregatorId)).toEqual([good[0]!["id"], "bad/micro", "bad/milli", "bad/future", "bad/old", ...good.slice(1).map((m) => m["id"])]);
    for (const row of rows) expect(() => openrouter.row.parse(row)).not.toThrow();
    for (const row of rows.filter((r) => r.aggregatorId.startsWith("bad/"))) expect(row.created).toBeNull();
    for (const [i, m] of good.entries()) {
      const row = rows.find((r) => r.aggregatorId === m["id"])!;
      expect(row.created).toBe(new Date((m["created"] as number) * 1000).toISOString().slice(0, 10));
      expect(row.created, `good entry ${i}`).not.toBeNull();
    }
  });

  it("normalize() keeps a created date up to one day past the fetch time", () => {
    const [row] = rowsOf({ data: [{ id: "a/b", created: NOW.getTime() / 1000 + 3_600 }] });
    expect(row?.created).toBe("2026-11-22");
  });
});
