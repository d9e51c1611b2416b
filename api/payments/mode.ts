/**
 * Which payment mode a server runs, from its environment (PAYMENTS_TEST_CHAIN = auto | on | off):
 * - live: BASE_RPC_URL and PUBLISHER_WALLET are both set — the real network, whatever PAYMENTS_TEST_CHAIN says
 *   unless it is `on` (a conflict: start refuses).
 * - test-chain: `on`, or `auto` (the default) with neither set and no PUBLIC_BASE_URL — a local anvil with test
 *   USDC, so a newcomer can try the paid half. A public instance never runs test money without the explicit `on`.
 * - off: anything else; payment routes answer 503 payments_not_configured and the reason is printed at start.
 */
import { PaymentConfigError } from "./config.ts";

/** Values of PAYMENTS_TEST_CHAIN. */
export const TEST_CHAIN_SETTINGS = ["auto", "on", "off"] as const;
export type TestChainSetting = (typeof TEST_CHAIN_SETTINGS)[number];

/** The decided mode; `off` and `test-chain` say why. */
export type PaymentModeDecision =
  | { kind: "live" }
  /** `forced` when PAYMENTS_TEST_CHAIN=on asked for it: a chain that cannot start then stops the start. */
  | { kind: "test-chain"; why: string; forced: boolean }
  | { kind: "off"; reason: string };

const isSet = (v: string | undefined) => v !== undefined && v.trim() !== "";

/** Parse PAYMENTS_TEST_CHAIN (unset or empty = auto); throws PaymentConfigError on anything else. */
export function testChainSetting(value: string | undefined): TestChainSetting {
  const v = (value ?? "").trim().toLowerCase();
  if (v === "") return "auto";
  if ((TEST_CHAIN_SETTINGS as readonly string[]).includes(v)) return v as TestChainSetting;
  throw new PaymentConfigError(`payment config: PAYMENTS_TEST_CHAIN must be auto, on or off, got ${JSON.stringify(value!.slice(0, 40))}`);
}

/** Decide the payment mode; `publicBaseUrl` overrides env.PUBLIC_BASE_URL (a server started with one in its options). */
export function decidePaymentMode(env: Record<string, string | undefined>, publicBaseUrl?: string): PaymentModeDecision {
  const setting = testChainSetting(env.PAYMENTS_TEST_CHAIN);
  const rpc = isSet(env.BASE_RPC_URL);
  const wallet = isSet(env.PUBLISHER_WALLET);
  if (setting === "on") {
    if (rpc || wallet) {
      throw new PaymentConfigError(
        `payment config: PAYMENTS_TEST_CHAIN=on conflicts with ${[rpc && "BASE_RPC_URL", wallet && "PUBLISHER_WALLET"].filter(Boolean).join(" and ")}: unset PAYMENTS_TEST_CHAIN for the real network, or unset those for the test chain`,
      );
    }
    return { kind: "test-chain", why: "PAYMENTS_TEST_CHAIN=on", forced: true };
  }
  if (rpc && wallet) return { kind: "live" };
  if (setting === "off") return { kind: "off", reason: "PAYMENTS_TEST_CHAIN=off and BASE_RPC_URL, PUBLISHER_WALLET are not both set" };
  if (rpc !== wallet) {
    return {
      kind: "off",
      reason: `${rpc ? "BASE_RPC_URL" : "PUBLISHER_WALLET"} is set but ${rpc ? "PUBLISHER_WALLET" : "BASE_RPC_URL"} is not: set both for the real network, or neither for a local test chain`,
    };
  }
  if (isSet(publicBaseUrl ?? env.PUBLIC_BASE_URL)) {
    return {
      kind: "off",
      reason: "PUBLIC_BASE_URL is set and BASE_RPC_URL, PUBLISHER_WALLET are not: a public instance runs no test chain unless PAYMENTS_TEST_CHAIN=on",
    };
  }
  return { kind: "test-chain", why: "no BASE_RPC_URL, PUBLISHER_WALLET or PUBLIC_BASE_URL (PAYMENTS_TEST_CHAIN=auto)", forced: false };
}
