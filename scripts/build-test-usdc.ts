/**
 * `npm run build:test-usdc`: compile api/payments/test-chain/TestUSDC.sol with solc and write the generated
 * api/payments/test-chain/test-usdc-artifact.ts (ABI and creation bytecode) that `npm start` deploys on its
 * local test chain. Run it after changing the contract; test-usdc-artifact.test.ts fails until you do.
 */
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { renderTestUsdcArtifact } from "../api/payments/test-chain/render-artifact.ts";
import { compileTestUsdc } from "../api/payments/testing/compile.ts";

const target = fileURLToPath(new URL("../api/payments/test-chain/test-usdc-artifact.ts", import.meta.url));
writeFileSync(target, renderTestUsdcArtifact(compileTestUsdc()));
process.stdout.write(`wrote ${target}\n`);
