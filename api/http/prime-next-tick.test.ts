import { execFileSync } from "node:child_process";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";

/** V8's "optimized" bit in `%GetOptimizationStatus` (src/runtime/runtime-test.cc, OptimizationStatus). */
const OPTIMIZED = 1 << 4;

const MODULE = pathToFileURL(fileURLToPath(new URL("./prime-next-tick.ts", import.meta.url))).href;

/** `process.nextTick`'s optimization status in a fresh Node process, with or without importing the module. */
function nextTickStatus(primed: boolean): number {
  const code = `${primed ? `await import(${JSON.stringify(MODULE)});` : ""}
await new Promise((done) => setTimeout(done, 300));
process.stdout.write(String(%GetOptimizationStatus(process.nextTick)));`;
  const out = execFileSync(process.execPath, ["--allow-natives-syntax", "--import", "tsx", "--input-type=module", "-e", code], { encoding: "utf8" });
  return Number(out.trim());
}

describe("prime-next-tick", () => {
  it("leaves process.nextTick optimized once imported, where a fresh process has not optimized it yet", () => {
    expect(nextTickStatus(true) & OPTIMIZED).toBe(OPTIMIZED);
    expect(nextTickStatus(false) & OPTIMIZED).toBe(0);
  });
});
