import { describe, expect, it } from "vitest";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { ApiError } from "../registry/types.ts";
import { parseProofMessage, proofMessage } from "./proof.ts";
import { parseTrialMessage, TRIAL_STATEMENT, trialMessage } from "./trial-message.ts";
import { verifyPersonalSign } from "./signature.ts";
import { parseWallet } from "./wallet.ts";

const code = (fn: () => unknown): string => {
  try {
    fn();
  } catch (err) {
    if (err instanceof ApiError) return err.code;
    throw err;
  }
  return "ok";
};

describe("messages", () => {
  it("trialMessage() and parseTrialMessage() round-trip the five-line format", () => {
    const wallet = "0x52908400098527886E0F7030069857D2E4169EE7";
    const ts = new Date("2026-01-02T03:04:05.000Z");
    const message = trialMessage({ wallet, timestamp: ts, nonce: "0123456789abcdef" });
    expect(message.split("\n")).toEqual([TRIAL_STATEMENT, "", `wallet: ${wallet}`, "timestamp: 2026-01-02T03:04:05.000Z", "nonce: 0123456789abcdef"]);
    const parsed = parseTrialMessage(message.replace(/\n/g, "\r\n"));
    expect(parsed.wallet.lower).toBe(wallet.toLowerCase());
    expect(parsed.timestamp.toISOString()).toBe(ts.toISOString());
    expect(code(() => parseTrialMessage(message.replace("0123456789abcdef", "0123")))).toBe("invalid_trial_message");
    expect(code(() => parseTrialMessage(message.replace(TRIAL_STATEMENT, "give me credits")))).toBe("invalid_trial_message");
    expect(code(() => parseTrialMessage(message.replace("2026-01-02T03:04:05.000Z", "yesterday")))).toBe("invalid_trial_message");
    // Without its zone a time names no instant (it would be read in the host's zone): refused, whatever the host.
    expect(code(() => parseTrialMessage(message.replace("2026-01-02T03:04:05.000Z", "2026-01-02T03:04:05")))).toBe("invalid_trial_message");
    expect(parseTrialMessage(message.replace("2026-01-02T03:04:05.000Z", "2026-01-02T08:34:05+05:30")).timestamp.toISOString()).toBe("2026-01-02T03:04:05.000Z");
    expect(code(() => parseTrialMessage(message.replace("EE7", "Ee7")))).toBe("invalid_trial_message");
  });

  it("parseProofMessage() reads amount as units and wallet in lower case", () => {
    const wallet = "0x52908400098527886E0F7030069857D2E4169EE7";
    const message = proofMessage({ amountUnits: 5_000_000n, senderWallet: wallet, timestamp: new Date("2026-01-02T03:04:05.000Z") });
    expect(message).toBe(`agentfeed quote\namount_usd: 5.00\nsender_wallet: ${wallet}\ntimestamp: 2026-01-02T03:04:05.000Z`);
    expect(parseProofMessage(message.replace("5.00", "5"))).toMatchObject({ amountUnits: 5_000_000n, wallet: wallet.toLowerCase() });
    expect(code(() => parseProofMessage(`${message}\nextra: 1`))).toBe("invalid_proof_message");
    expect(code(() => parseProofMessage(message.replace("2026-01-02T03:04:05.000Z", "2026-01-02T03:04:05")))).toBe("invalid_proof_message");
  });

  it("parseWallet() accepts checksummed and lower case, refuses a bad checksum", () => {
    expect(parseWallet("0x52908400098527886e0f7030069857d2e4169ee7").checksummed).toBe("0x52908400098527886E0F7030069857D2E4169EE7");
    expect(code(() => parseWallet("0x52908400098527886E0F7030069857D2E4169Ee7"))).toBe("invalid_wallet");
    expect(code(() => parseWallet("0x52908400098527886E0F7030069857D2E4169EE"))).toBe("invalid_wallet");
  });

  it("verifyPersonalSign() checks the signer and rejects malformed signatures", async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const signature = await account.signMessage({ message: "hello" });
    expect(await verifyPersonalSign(account.address, "hello", signature)).toBe(true);
    expect(await verifyPersonalSign(account.address, "hello!", signature)).toBe(false);
    expect(await verifyPersonalSign(account.address, "hello", "0xzz")).toBe(false);
    expect(await verifyPersonalSign(account.address, "hello", `0x${"00".repeat(65)}`)).toBe(false);
  });
});
