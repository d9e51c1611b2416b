import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { getAddress } from "viem";
import { BASE_USDC_ADDRESS, DEFAULT_MIN_CONFIRMATIONS, loadPaymentConfig, PaymentConfigError } from "./config.ts";
import { bundledSanctions, loadSanctions, SanctionsListError } from "./sanctions.ts";
import { BUNDLED_SANCTIONS } from "./sanctions-list.ts";

describe("loadPaymentConfig()", () => {
  it("loadPaymentConfig() applies Base defaults and is unconfigured without wallet or RPC", () => {
    const c = loadPaymentConfig({});
    expect(c).toMatchObject({ configured: false, chainId: 8453, usdcAddress: BASE_USDC_ADDRESS, minConfirmations: DEFAULT_MIN_CONFIRMATIONS, requireWalletProof: false });
    expect(loadPaymentConfig({ BASE_RPC_URL: "https://mainnet.base.org" }).configured).toBe(false);
    expect(loadPaymentConfig({ PUBLISHER_WALLET: "0x52908400098527886e0f7030069857d2e4169ee7" }).configured).toBe(false);
  });

  it("loadPaymentConfig() reads every variable and checksums addresses", () => {
    const c = loadPaymentConfig({
      BASE_RPC_URL: "http://127.0.0.1:8545",
      PUBLISHER_WALLET: "0x52908400098527886e0f7030069857d2e4169ee7",
      CHAIN_ID: "84532",
      USDC_ADDRESS: "0x036cbd53842c5426634e7929541ec2318f3dcf7e",
      MIN_CONFIRMATIONS: "1",
      REQUIRE_WALLET_PROOF: "TRUE",
      SANCTIONS_LIST: "/etc/sdn.txt",
    });
    expect(c).toEqual({
      configured: true,
      rpcUrl: "http://127.0.0.1:8545",
      chainId: 84532,
      usdcAddress: "0x036CbD53842c5426634e7929541eC2318f3dCF7e",
      publisherWallet: "0x52908400098527886E0F7030069857D2E4169EE7",
      minConfirmations: 1,
      requireWalletProof: true,
      sanctionsList: "/etc/sdn.txt",
    });
  });

  it("loadPaymentConfig() refuses a bad-checksum wallet, a non-URL RPC and a negative confirmation count", () => {
    expect(() => loadPaymentConfig({ PUBLISHER_WALLET: "0x52908400098527886E0F7030069857D2E4169Ee7" })).toThrow(PaymentConfigError);
    expect(() => loadPaymentConfig({ BASE_RPC_URL: "mainnet.base.org" })).toThrow(PaymentConfigError);
    expect(() => loadPaymentConfig({ MIN_CONFIRMATIONS: "-1" })).toThrow(PaymentConfigError);
    expect(() => loadPaymentConfig({ MIN_CONFIRMATIONS: "0" })).toThrow(/^payment config: MIN_CONFIRMATIONS/);
    expect(() => loadPaymentConfig({ CHAIN_ID: "abc" })).toThrow(/^payment config: CHAIN_ID: .*, got "abc"$/);
  });
});

describe("loadSanctions()", () => {
  it("loadSanctions() uses the bundled, checksum-valid list by default", async () => {
    const list = await loadSanctions(undefined);
    expect(list.size).toBe(BUNDLED_SANCTIONS.addresses.length);
    for (const { address } of BUNDLED_SANCTIONS.addresses) {
      expect(getAddress(address)).toBe(address);
      expect(list.has(address.toLowerCase())).toBe(true);
    }
    expect(bundledSanctions().has("0x52908400098527886E0F7030069857D2E4169EE7")).toBe(false);
  });

  it("loadSanctions() reads a replacement list as JSON or text", async () => {
    const dir = await mkdtemp(join(tmpdir(), "sanctions-"));
    const a = "0x52908400098527886E0F7030069857D2E4169EE7";
    await writeFile(join(dir, "list.json"), JSON.stringify({ addresses: [{ address: a }] }));
    await writeFile(join(dir, "list.txt"), `# test list\n${a.toLowerCase()}  # one entry\n\n`);
    await writeFile(join(dir, "bad.txt"), "not-an-address\n");
    expect((await loadSanctions(join(dir, "list.json"))).has(a)).toBe(true);
    const text = await loadSanctions(join(dir, "list.txt"));
    expect(text.has(a)).toBe(true);
    expect(text.has(BUNDLED_SANCTIONS.addresses[0]!.address)).toBe(false);
    await expect(loadSanctions(join(dir, "bad.txt"))).rejects.toThrow(SanctionsListError);
    await expect(loadSanctions(join(dir, "missing.txt"))).rejects.toThrow(SanctionsListError);
  });
});
