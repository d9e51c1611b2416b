import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { ApiError } from "../registry/types.ts";
import { openTempDatabase, type TempDatabase } from "../state/testing/temp-database.ts";
import type { PaymentDeps } from "./deps.ts";
import { sanctionsList } from "./sanctions.ts";
import { testClock, testPaymentDeps } from "./testing/deps.ts";
import { grantTrial, TRIAL_CREDITS } from "./trial.ts";
import { trialMessage } from "./trial-message.ts";

let temp: TempDatabase;
let deps: PaymentDeps;
const clock = testClock();
const sanctioned = privateKeyToAccount(generatePrivateKey());

beforeAll(async () => {
  temp = await openTempDatabase();
  // the chain is never read by trial grants; the URL only marks payments as configured
  deps = testPaymentDeps(temp, {
    rpcUrl: "http://127.0.0.1:9",
    publisher: privateKeyToAccount(generatePrivateKey()).address,
    sanctions: sanctionsList([sanctioned.address], "test list"),
    clock,
  });
}, 60_000);
afterAll(async () => temp?.close());

const nonce = () => Buffer.from(crypto.getRandomValues(new Uint8Array(8))).toString("hex");

async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    if (err instanceof ApiError) return `${err.status} ${err.code}`;
    throw err;
  }
  return "resolved";
}

async function signed(account = privateKeyToAccount(generatePrivateKey()), options: { wallet?: string; timestamp?: Date; nonce?: string } = {}) {
  const message = trialMessage({ wallet: options.wallet ?? account.address, timestamp: options.timestamp ?? new Date(), nonce: options.nonce ?? nonce() });
  return { account, message, signature: await account.signMessage({ message }) };
}

describe("grantTrial()", () => {
  it("grantTrial() grants 25 credits on a trial token expiring in 30 days", async () => {
    const { account, message, signature } = await signed();
    const grant = await grantTrial(deps, { message, signature });
    expect(grant).toMatchObject({ ok: true, credits: TRIAL_CREDITS, wallet: account.address });
    const days = (Date.parse(grant.expires_at) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThan(30.1);
    expect(grant.how_to_use).toContain(grant.token);
    const info = await deps.credits.tokenByBearer(grant.token);
    expect(info).toMatchObject({ kind: "trial", balance: 25, wallet: account.address.toLowerCase() });
  });

  it("grantTrial() refuses a replayed nonce and a second grant for the same wallet in other case", async () => {
    const first = await signed();
    await grantTrial(deps, first);
    expect(await codeOf(grantTrial(deps, first))).toBe("409 nonce_used");
    const lower = await signed(first.account, { wallet: first.account.address.toLowerCase() });
    expect(await codeOf(grantTrial(deps, lower))).toBe("409 trial_already_granted");
    // another wallet replaying the nonce of the first is refused too
    const other = await signed(undefined, { nonce: first.message.slice(-16) });
    expect(await codeOf(grantTrial(deps, other))).toBe("409 nonce_used");
  });

  it("grantTrial() grants once under concurrent requests of one wallet", async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const requests = await Promise.all(Array.from({ length: 8 }, () => signed(account)));
    const results = await Promise.all(requests.map((r) => codeOf(grantTrial(deps, r))));
    expect(results.filter((r) => r === "resolved")).toHaveLength(1);
    expect(results.filter((r) => r === "409 trial_already_granted")).toHaveLength(7);
    const { rows } = await temp.db.query<{ n: string }>("SELECT count(*) AS n FROM tokens WHERE wallet = $1", [account.address.toLowerCase()]);
    expect(Number(rows[0]?.n)).toBe(1);
  });

  it("grantTrial() refuses an old or future timestamp, a bad signature, and a sanctioned wallet", async () => {
    expect(await codeOf(grantTrial(deps, await signed(undefined, { timestamp: new Date(Date.now() - 11 * 60_000) })))).toBe("400 trial_message_expired");
    expect(await codeOf(grantTrial(deps, await signed(undefined, { timestamp: new Date(Date.now() + 11 * 60_000) })))).toBe("400 trial_message_expired");
    const good = await signed();
    const impostor = privateKeyToAccount(generatePrivateKey());
    expect(await codeOf(grantTrial(deps, { message: good.message, signature: await impostor.signMessage({ message: good.message }) }))).toBe("400 invalid_signature");
    expect(await codeOf(grantTrial(deps, { message: good.message, signature: "0x1234" }))).toBe("400 invalid_signature");
    expect(await codeOf(grantTrial(deps, { message: `${good.message} `, signature: good.signature }))).toBe("400 invalid_trial_message");
    expect(await codeOf(grantTrial(deps, await signed(sanctioned)))).toBe("403 wallet_blocked");
    // the untouched request still works
    await expect(grantTrial(deps, good)).resolves.toMatchObject({ credits: 25 });
  });

  it("grantTrial() honours the clock", async () => {
    const at = new Date("2026-03-01T10:00:00.000Z");
    clock.set(at);
    try {
      const grant = await grantTrial(deps, await signed(undefined, { timestamp: new Date(at.getTime() - 60_000) }));
      expect(grant.expires_at).toBe("2026-03-31T10:00:00.000Z");
    } finally {
      clock.reset();
    }
  });
});
