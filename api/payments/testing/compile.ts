/**
 * Compile test-chain/TestUSDC.sol with solc (standard JSON input) once per process. `npm start` never needs
 * solc: it deploys the committed artifact (test-chain/test-usdc-artifact.ts), which a test keeps equal to this.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import type { Abi } from "viem";

/** ABI and creation bytecode of a compiled contract. */
export interface CompiledContract {
  abi: Abi;
  bytecode: `0x${string}`;
}

/** solc reported errors for the test contract. */
export class SolcError extends Error {
  override name = "SolcError";
}

let cached: CompiledContract | undefined;

/** The compiled TestUSDC contract (compiled at first call, then cached in memory). */
export function compileTestUsdc(): CompiledContract {
  if (cached) return cached;
  const solc = createRequire(import.meta.url)("solc") as { compile(input: string): string };
  const source = readFileSync(fileURLToPath(new URL("../test-chain/TestUSDC.sol", import.meta.url)), "utf8");
  const input = {
    language: "Solidity",
    sources: { "TestUSDC.sol": { content: source } },
    settings: { optimizer: { enabled: true, runs: 200 }, outputSelection: { "*": { "*": ["abi", "evm.bytecode.object"] } } },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as {
    errors?: { severity: string; formattedMessage: string }[];
    contracts?: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string } } }>>;
  };
  const errors = (output.errors ?? []).filter((e) => e.severity === "error");
  if (errors.length > 0) throw new SolcError(`solc: TestUSDC.sol failed to compile: ${errors.map((e) => e.formattedMessage).join("\n")}`);
  const contract = output.contracts?.["TestUSDC.sol"]?.TestUSDC;
  if (!contract) throw new SolcError("solc: no TestUSDC contract in the output");
  cached = { abi: contract.abi, bytecode: `0x${contract.evm.bytecode.object}` };
  return cached;
}
