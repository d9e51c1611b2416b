/**
 * @noble/ed25519 with SHA-512 from node:crypto wired in, so the synchronous sign/verify API works in Node
 * (v3 needs `hashes.sha512` set before any sync call). Import Ed25519 from here, never the package directly.
 */
import { createHash } from "node:crypto";
import * as noble from "@noble/ed25519";

noble.hashes.sha512 = (message: Uint8Array) => new Uint8Array(createHash("sha512").update(message).digest());

/** Public key of a 32-byte seed. */
export function getPublicKey(seed: Uint8Array): Uint8Array {
  return noble.getPublicKey(seed);
}

/** 64-byte RFC 8032 signature of a message. */
export function sign(message: Uint8Array, seed: Uint8Array): Uint8Array {
  return noble.sign(message, seed);
}

/** True when the signature is valid; false (never a throw) for malformed signatures or keys. */
export function verify(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean {
  try {
    return noble.verify(signature, message, publicKey, { zip215: false });
  } catch {
    return false;
  }
}
