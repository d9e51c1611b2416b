import { createHash, randomBytes } from "node:crypto";
import * as noble from "@noble/ed25519";
import { describe, expect, it } from "vitest";
import * as ed from "./ed25519.ts";

noble.hashes.sha512 = (message: Uint8Array) => new Uint8Array(createHash("sha512").update(message).digest());

/** Seeds and messages of many shapes: fixed edge cases plus random ones. */
const seeds = [new Uint8Array(32), new Uint8Array(32).fill(0xff), Uint8Array.from({ length: 32 }, (_, i) => i + 1), ...Array.from({ length: 40 }, () => Uint8Array.from(randomBytes(32)))];
const messages = [new Uint8Array(0), new TextEncoder().encode('{"credits_charged":1}'), ...Array.from({ length: 40 }, (_, i) => Uint8Array.from(randomBytes(i * 37)))];

describe("ed25519 on node:crypto", () => {
  it("getPublicKey() and sign() are byte-identical to @noble/ed25519 for the same seed and message", () => {
    for (const [i, seed] of seeds.entries()) {
      expect(Buffer.from(ed.getPublicKey(seed)).toString("hex")).toBe(Buffer.from(noble.getPublicKey(seed)).toString("hex"));
      const message = messages[i % messages.length]!;
      expect(Buffer.from(ed.sign(message, seed)).toString("hex")).toBe(Buffer.from(noble.sign(message, seed)).toString("hex"));
    }
  });

  it("verify() accepts what @noble/ed25519 signed and refuses a flipped bit, a wrong key and malformed input", () => {
    const seed = seeds[2]!;
    const message = messages[1]!;
    const publicKey = noble.getPublicKey(seed);
    const signature = noble.sign(message, seed);
    expect(ed.verify(signature, message, publicKey)).toBe(true);
    const flipped = Uint8Array.from(signature);
    flipped[10]! ^= 1;
    expect(ed.verify(flipped, message, publicKey)).toBe(false);
    expect(ed.verify(signature, message, noble.getPublicKey(seeds[3]!))).toBe(false);
    expect(ed.verify(signature.subarray(0, 63), message, publicKey)).toBe(false);
    expect(ed.verify(signature, message, publicKey.subarray(1))).toBe(false);
    expect(ed.verify(signature, message, new Uint8Array(32))).toBe(false);
  });
});
