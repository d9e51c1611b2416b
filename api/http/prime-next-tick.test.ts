import { execFileSync } from "node:child_process";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";

/** V8's optimization status bit "optimized" (%GetOptimizationStatus, runtime-test.cc). */
const OPTIMIZED = 1 << 4;

/** The optimization status of `process.nextTick` in a fresh Node process, after importing the module or not. */
function nextTickStatus(prime: boolean): number {
  const module = pathToFileURL(new URL("./prime-next-tick.ts", import.meta.url).pathname).href;
  const code = `${prime ? `await import(${JSON.stringify(module)});` : ""} await new Promise((r) => setTimeout(r, 300)); process.stdout.write(String(%GetOptimizationStatus(process.nextTick)));`;
  return Number(execFileSync(process.execPath, ["--allow-natives-syntax", "--import", "tsx", "--input-type=module", "-e", code], { encoding: "utf8" }));
}

describe("prime-next-tick", () => {
  it("leaves process.nextTick optimized once imported; a fresh process has not optimized it yet", () => {
    expect(nextTickStatus(true) & OPTIMIZED).toBe(OPTIMIZED);
    expect(nextTickStatus(false) & OPTIMIZED).toBe(0);
  });
});
