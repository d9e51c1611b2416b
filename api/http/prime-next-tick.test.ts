import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";

/**
 * Bits of V8's `%GetOptimizationStatus` (src/runtime/runtime-test.cc, OptimizationStatus): compiled by an
 * optimizing tier, still run by the interpreter, compiled by the baseline tier.
 */
const OPTIMIZED = 1 << 4;
const INTERPRETED = 1 << 7;
const BASELINE = 1 << 15;

const MODULE = new URL("./prime-next-tick.ts", import.meta.url).href;

/** `process.nextTick`'s optimization status in a fresh Node process, with or without importing the module. */
function nextTickStatus(primed: boolean): number {
  const code = `${primed ? `await import(${JSON.stringify(MODULE)});` : ""}
await new Promise((done) => setTimeout(done, 300));
process.stdout.write(String(%GetOptimizationStatus(process.nextTick)));`;
  const out = execFileSync(process.execPath, ["--allow-natives-syntax", "--import", "tsx", "--input-type=module", "-e", code], { encoding: "utf8" });
  return Number(out.trim());
}

describe("prime-next-tick", () => {
  // V8 either optimizes nextTick itself or, when it first compiles the loop that runs the primed ticks with
  // nextTick inlined, leaves nextTick baseline-compiled on the primed ticks' feedback; never still interpreted.
  it("leaves process.nextTick compiled out of the interpreter once imported, where a fresh process still interprets it", () => {
    for (let run = 0; run < 3; run++) {
      const primed = nextTickStatus(true);
      expect(primed & INTERPRETED, primed.toString(2)).toBe(0);
      expect(primed & (OPTIMIZED | BASELINE), primed.toString(2)).not.toBe(0);
    }
    const fresh = nextTickStatus(false);
    expect(fresh & INTERPRETED, fresh.toString(2)).toBe(INTERPRETED);
    expect(fresh & (OPTIMIZED | BASELINE), fresh.toString(2)).toBe(0);
  });
});
