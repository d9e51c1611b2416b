/**
 * The contract every source runs (in its own *.test.ts): its recorded fixture parses, the normalized rows
 * pass the strict row schema, and normalizing is deterministic and JSON-stable.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { Source } from "../types.ts";

export interface ContractCase<Meta> {
  /** Path of the recorded upstream body. */
  fixture: string;
  /** URL the fixture stands for. */
  url: string;
  meta: Meta;
  /** Fixed clock for normalize. */
  now?: Date;
  /** Minimum rows the fixture must yield (default 1). */
  minRows?: number;
}

/** Register the contract tests of `source` for each recorded case. */
export function testSource<Parsed, Row, Meta>(source: Source<Parsed, Row, Meta>, cases: ContractCase<Meta>[]): void {
  describe(`source ${source.id} contract`, () => {
    for (const c of cases) {
      const now = c.now ?? new Date("2026-11-20T12:00:00Z");
      const run = () => source.normalize(source.parse(readFileSync(c.fixture, "utf8")), { url: c.url, now, meta: c.meta });

      it(`parse() accepts ${c.url}`, () => {
        expect(() => source.parse(readFileSync(c.fixture, "utf8"))).not.toThrow();
      });

      it(`normalize() output passes the strict row schema for ${c.url}`, () => {
        const rows = run();
        expect(rows.length).toBeGreaterThanOrEqual(c.minRows ?? 1);
        for (const row of rows) source.row.parse(row);
      });

      it(`normalize() is deterministic and JSON-stable for ${c.url}`, () => {
        const first = run();
        const second = run();
        expect(second).toEqual(first);
        expect(JSON.parse(JSON.stringify(first))).toEqual(first);
      });
    }
  });
}
