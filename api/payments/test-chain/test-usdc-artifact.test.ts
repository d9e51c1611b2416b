/** The committed TestUSDC artifact that `npm start` deploys is exactly what solc makes of TestUSDC.sol today. */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { compileTestUsdc } from "../testing/compile.ts";
import { renderTestUsdcArtifact } from "./render-artifact.ts";
import { TEST_USDC_ABI, TEST_USDC_BYTECODE } from "./test-usdc-artifact.ts";

describe("test-usdc-artifact.ts", () => {
  it("equals a fresh compilation of TestUSDC.sol (run `npm run build:test-usdc` after changing the contract)", () => {
    const fresh = compileTestUsdc();
    expect(TEST_USDC_BYTECODE).toBe(fresh.bytecode);
    expect(TEST_USDC_ABI).toEqual(fresh.abi);
    const committed = readFileSync(new URL("./test-usdc-artifact.ts", import.meta.url), "utf8");
    expect(committed).toBe(renderTestUsdcArtifact(fresh));
  });

  it("is a 6-decimal token with mint and transfer", () => {
    const names = TEST_USDC_ABI.filter((e) => e.type === "function").map((e) => e.name);
    expect(names).toEqual(expect.arrayContaining(["decimals", "mint", "transfer", "balanceOf"]));
  });
});
