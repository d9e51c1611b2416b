import { describe, expect, it } from "vitest";
import { dataGeneration } from "./data-generation.ts";

describe("dataGeneration()", () => {
  it("moves when the snapshot generation or the warehouse version moves, and only then", () => {
    const snapshots = { generation: 4 };
    const warehouse = { version: 0 };
    const generation = dataGeneration(snapshots, warehouse);
    const first = generation();
    expect(generation()).toBe(first);
    warehouse.version = 1;
    const second = generation();
    expect(second).toBeGreaterThan(first);
    expect(generation()).toBe(second);
    snapshots.generation = 5;
    const third = generation();
    expect(third).toBeGreaterThan(second);
    expect(dataGeneration(snapshots)()).toBe(dataGeneration(snapshots)());
  });
});
