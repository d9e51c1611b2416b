import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCredits } from "../billing/credits.ts";
import { openTempDatabase, type TempDatabase } from "../state/testing/temp-database.ts";
import { startPayments } from "./start.ts";

let temp: TempDatabase;
beforeAll(async () => {
  temp = await openTempDatabase();
});
afterAll(async () => temp?.close());

const start = (env: Record<string, string>) => startPayments({ db: temp.db, credits: createCredits(temp.db), env });

describe("startPayments()", () => {
  it("is off with one line saying why when there is no anvil to run", async () => {
    const started = await start({ ANVIL_BIN: "/nonexistent/anvil" });
    expect(started.mode).toBe("off");
    expect(started.line).toBe("off (no local test chain: ANVIL_BIN=/nonexistent/anvil is not an executable file; payment routes answer 503 payments_not_configured)");
    expect(started.deps.config.configured).toBe(false);
  });

  it("refuses to start when PAYMENTS_TEST_CHAIN=on asks for a test chain that cannot run", async () => {
    await expect(start({ PAYMENTS_TEST_CHAIN: "on", ANVIL_BIN: "/nonexistent/anvil" })).rejects.toThrow(
      "payment config: PAYMENTS_TEST_CHAIN=on, but no local test chain: ANVIL_BIN=/nonexistent/anvil is not an executable file",
    );
  });

  it("checks every payment setting on the test chain too, before any chain starts", async () => {
    // The chain's own id, token and confirmations replace these there; a typo must not wait for the real network.
    await expect(start({ CHAIN_ID: "abc" })).rejects.toThrow(/^payment config: CHAIN_ID: .*"abc"/);
    await expect(start({ USDC_ADDRESS: "0x123" })).rejects.toThrow(/^payment config: USDC_ADDRESS/);
    await expect(start({ PAYMENTS_TEST_CHAIN: "on", MIN_CONFIRMATIONS: "0" })).rejects.toThrow(/^payment config: MIN_CONFIRMATIONS/);
  });

  it("runs the test chain by default and stops its anvil", { timeout: 30_000 }, async () => {
    const started = await start({});
    try {
      expect(started.mode).toBe("test-chain");
      expect(started.deps.config).toMatchObject({ configured: true, chainId: 31337, minConfirmations: 1, publisherWallet: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266" });
      expect(started.deps.config.testChain?.fundedAccounts).toHaveLength(9);
      expect(await started.deps.chain!.getChainId()).toBe(31337);
    } finally {
      await started.stop();
    }
    await expect(started.deps.chain!.getBlockNumber({ cacheTime: 0 })).rejects.toThrow();
  });

  it("is the real network with BASE_RPC_URL and PUBLISHER_WALLET, printing only the RPC host", async () => {
    const started = await start({ BASE_RPC_URL: "https://rpc.example/v2/secret-key", PUBLISHER_WALLET: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8" });
    expect(started.mode).toBe("live");
    expect(started.line).toBe(
      "live on Base mainnet (chain 8453), REAL USDC, paid to 0x70997970C51812dc3A010C7d01b50e0d17dc79C8, token 0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913, RPC rpc.example",
    );
    expect(started.deps.config.testChain).toBeUndefined();
  });
});
