/**
 * Ed25519 (RFC 8032) on Node's built-in crypto (OpenSSL): sign, public key of a seed, verify. A seed becomes
 * a private KeyObject once (cached per seed array, as a public key is per key array), so signing a receipt is one native call. Import Ed25519
 * from here, never a package directly.
 */
import { createPrivateKey, createPublicKey, sign as nodeSign, verify as nodeVerify, type KeyObject } from "node:crypto";

/** DER prefix of a PKCS#8 Ed25519 private key; the 32-byte seed follows. */
const PKCS8_PREFIX = Buffer.from("302e020100300506032b657004220420", "hex");
/** DER prefix of an SPKI Ed25519 public key; the 32-byte key follows. */
const SPKI_PREFIX = Buffer.from("302a300506032b6570032100", "hex");

const privateKeys = new WeakMap<Uint8Array, KeyObject>();
const publicKeys = new WeakMap<Uint8Array, KeyObject>();

/** The private KeyObject of a 32-byte seed (made once per seed array; a KeyObject can be posted to a worker thread). */
export function signingKey(seed: Uint8Array): KeyObject {
  let key = privateKeys.get(seed);
  if (!key) {
    if (seed.length !== 32) throw new Error(`ed25519: a seed is 32 bytes, got ${seed.length}`);
    key = createPrivateKey({ key: Buffer.concat([PKCS8_PREFIX, seed]), format: "der", type: "pkcs8" });
    privateKeys.set(seed, key);
  }
  return key;
}

/** Public key of a 32-byte seed. */
export function getPublicKey(seed: Uint8Array): Uint8Array {
  const der = createPublicKey(signingKey(seed)).export({ format: "der", type: "spki" });
  return Uint8Array.from(der.subarray(SPKI_PREFIX.length));
}

/** 64-byte RFC 8032 signature of a message. */
export function sign(message: Uint8Array, seed: Uint8Array): Uint8Array {
  return nodeSign(null, message, signingKey(seed));
}

/** True when the signature is valid; false (never a throw) for malformed signatures or keys. */
export function verify(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean {
  if (signature.length !== 64 || publicKey.length !== 32) return false;
  try {
    let key = publicKeys.get(publicKey);
    if (!key) {
      key = createPublicKey({ key: Buffer.concat([SPKI_PREFIX, publicKey]), format: "der", type: "spki" });
      publicKeys.set(publicKey, key);
    }
    return nodeVerify(null, message, key, signature);
  } catch {
    return false;
  }
}
