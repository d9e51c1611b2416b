import { createHash } from "node:crypto";
import * as noble from "@noble/ed25519";
import { afterAll, describe, expect, it } from "vitest";
import { receiptKeyFromSeed } from "./receipt-key.ts";
import { ReceiptSigner } from "./receipt-signer.ts";
import { signingInput, signReceipt, verifyReceipt } from "./receipts.ts";

noble.hashes.sha512 = (message: Uint8Array) => new Uint8Array(createHash("sha512").update(message).digest());

const key = receiptKeyFromSeed(Uint8Array.from({ length: 32 }, (_, i) => i * 7), "env");
const other = receiptKeyFromSeed(Uint8Array.from({ length: 32 }, (_, i) => 255 - i), "env");
const fields = (i: number) => ({
  id: `rcpt_${i.toString(16).padStart(24, "0")}`,
  endpoint: "GET /api/premium/routing",
  request_hash: "ab".repeat(32),
  response_hash: (i % 256).toString(16).padStart(2, "0").repeat(32),
  credits_charged: i % 3,
  no_charge_reason: i % 3 === 0 ? "stale_data" : null,
  time: new Date(Date.UTC(2026, 10, 26, 0, 0, i)).toISOString(),
});

describe("ReceiptSigner", () => {
  const signer = new ReceiptSigner();
  afterAll(() => signer.close());

  it("signs on its thread exactly the receipts signReceipt signs, for two keys in one batch", async () => {
    const receipts = await Promise.all(Array.from({ length: 200 }, (_, i) => signer.sign(i % 2 ? key : other, fields(i))));
    receipts.forEach((receipt, i) => expect(receipt).toEqual(signReceipt(i % 2 ? key : other, fields(i))));
    const keys = new Map([[key.kid, key.publicKey], [other.kid, other.publicKey]]);
    expect(receipts.every((r) => verifyReceipt(r, keys).valid)).toBe(true);
    // And byte for byte what the audited pure-JS implementation signs.
    for (const [i, receipt] of receipts.slice(0, 20).entries()) {
      const seed = (i % 2 ? key : other).seed;
      expect(receipt.signature).toBe(Buffer.from(noble.sign(signingInput(receipt.signed), seed)).toString("base64url"));
    }
  });

  it("signs the receipts it held here when closed before the thread answered, and starts a new thread after", async () => {
    const pending = Array.from({ length: 20 }, (_, i) => signer.sign(key, fields(i)));
    await new Promise((ok) => setImmediate(ok)); // the batch is on its way to the thread
    await signer.close();
    expect(await Promise.all(pending)).toEqual(Array.from({ length: 20 }, (_, i) => signReceipt(key, fields(i))));
    expect(await signer.sign(key, fields(7))).toEqual(signReceipt(key, fields(7)));
  });

  it("falls back to signing here, and reports once, when its thread cannot load", async () => {
    const broken = new ReceiptSigner(new URL("./no-such-signing-thread.mjs", import.meta.url));
    const reports: unknown[] = [];
    const receipts = await Promise.all(Array.from({ length: 5 }, (_, i) => broken.sign(key, fields(i), (e) => reports.push(e))));
    expect(receipts).toEqual(Array.from({ length: 5 }, (_, i) => signReceipt(key, fields(i))));
    expect(reports).toHaveLength(1);
    expect(await broken.sign(key, fields(9), (e) => reports.push(e))).toEqual(signReceipt(key, fields(9)));
    expect(reports).toHaveLength(1);
    await broken.close();
  });
});
