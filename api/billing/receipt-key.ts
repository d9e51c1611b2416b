/**
 * The Ed25519 key that signs receipts: RECEIPT_SIGNING_KEY (a 32-byte seed as 64 hex characters or 43
 * base64url characters) when set, else a seed generated once and kept in `${DATA_DIR}/receipt-key.json`
 * (mode 0600) so receipts stay verifiable across restarts. The key id is the first 16 hex characters of
 * sha256(public key).
 */
import { createHash, randomBytes } from "node:crypto";
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import * as ed from "./ed25519.ts";
import { dataDirOf } from "../state/data-dir.ts";

/** A loaded signing key. */
export interface ReceiptKey {
  kid: string;
  /** 32-byte RFC 8032 seed; never leaves the process. */
  seed: Uint8Array;
  /** 32-byte public key. */
  publicKey: Uint8Array;
  /** Where the seed came from. */
  source: "env" | "file" | "generated";
}

/** The public half of a receipt key, JWK-like, as /.well-known/receipt-key.json lists it. */
export interface PublicReceiptKey {
  kid: string;
  alg: "EdDSA";
  crv: "Ed25519";
  kty: "OKP";
  use: "sig";
  /** base64url of the 32-byte public key. */
  x: string;
}

/** Thrown when RECEIPT_SIGNING_KEY or the key file is unusable. */
export class ReceiptKeyError extends Error {
  override name = "ReceiptKeyError";
}

/** Key id of a public key: first 16 hex characters of its sha256. */
export function keyIdOf(publicKey: Uint8Array): string {
  return createHash("sha256").update(publicKey).digest("hex").slice(0, 16);
}

/** The key built from a 32-byte seed. */
export function receiptKeyFromSeed(seed: Uint8Array, source: ReceiptKey["source"] = "env"): ReceiptKey {
  if (seed.length !== 32) throw new ReceiptKeyError(`receipt key: the seed must be 32 bytes, got ${seed.length}`);
  const publicKey = ed.getPublicKey(seed);
  return { kid: keyIdOf(publicKey), seed, publicKey, source };
}

/** Parse a seed given as 64 hex characters or 43 base64url characters (the value itself is never echoed). */
export function parseSeed(text: string, name = "RECEIPT_SIGNING_KEY"): Uint8Array {
  const v = text.trim();
  if (/^(0x)?[0-9a-fA-F]{64}$/.test(v)) return Uint8Array.from(Buffer.from(v.replace(/^0x/, ""), "hex"));
  if (/^[A-Za-z0-9_-]{43}=?$/.test(v)) {
    const bytes = Buffer.from(v.replace(/=$/, ""), "base64url");
    if (bytes.length === 32) return Uint8Array.from(bytes);
  }
  throw new ReceiptKeyError(
    `${name} must be a 32-byte Ed25519 seed as 64 hex characters or 43 base64url characters; got ${v.length} characters`,
  );
}

/** The public JWK-like form of a key. */
export function publicJwk(key: Pick<ReceiptKey, "kid" | "publicKey">): PublicReceiptKey {
  return { kid: key.kid, alg: "EdDSA", crv: "Ed25519", kty: "OKP", use: "sig", x: Buffer.from(key.publicKey).toString("base64url") };
}

/** Options for {@link loadReceiptKey}. */
export interface LoadReceiptKeyOptions {
  /** RECEIPT_SIGNING_KEY; takes precedence over the file. */
  seed?: string;
  /** DATA_DIR (default `.data`); the key file lives at `<dataDir>/receipt-key.json`. */
  dataDir?: string;
  now?: () => Date;
}

/** Load the signing key: the given seed, else the key file, else a new key written to the key file (0600). */
export async function loadReceiptKey(options: LoadReceiptKeyOptions = {}): Promise<ReceiptKey> {
  if (options.seed && options.seed.trim() !== "") return receiptKeyFromSeed(parseSeed(options.seed), "env");
  const dir = dataDirOf(options.dataDir);
  const file = join(dir, "receipt-key.json");
  let text: string | undefined;
  try {
    text = await readFile(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") {
      throw new ReceiptKeyError(`receipt key: cannot read ${file}: ${(err as Error).message}`, { cause: err });
    }
  }
  if (text !== undefined) {
    let stored: { seed?: unknown; kid?: unknown };
    try {
      stored = JSON.parse(text) as { seed?: unknown; kid?: unknown };
    } catch (cause) {
      throw new ReceiptKeyError(`receipt key: ${file} is not JSON`, { cause });
    }
    if (typeof stored.seed !== "string") throw new ReceiptKeyError(`receipt key: ${file} has no "seed" string`);
    const key = receiptKeyFromSeed(parseSeed(stored.seed, `${file} seed`), "file");
    if (stored.kid !== undefined && stored.kid !== key.kid) {
      throw new ReceiptKeyError(`receipt key: ${file} says kid ${String(stored.kid)} but its seed gives ${key.kid}`);
    }
    return key;
  }
  const key = receiptKeyFromSeed(Uint8Array.from(randomBytes(32)), "generated");
  await mkdir(dir, { recursive: true });
  const doc = {
    ...publicJwk(key),
    seed: Buffer.from(key.seed).toString("base64url"),
    created: (options.now?.() ?? new Date()).toISOString(),
  };
  try {
    // "wx": never overwrite a key another process wrote in the meantime; read theirs instead.
    await writeFile(file, `${JSON.stringify(doc, null, 2)}\n`, { mode: 0o600, flag: "wx" });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "EEXIST") return loadReceiptKey({ ...options, seed: undefined });
    throw new ReceiptKeyError(`receipt key: cannot write ${file}: ${(err as Error).message}`, { cause: err });
  }
  await chmod(file, 0o600);
  return key;
}

let processKey: Promise<ReceiptKey> | undefined;

/** This process's signing key from RECEIPT_SIGNING_KEY / DATA_DIR, loaded once. */
export function processReceiptKey(env: Record<string, string | undefined> = process.env): Promise<ReceiptKey> {
  processKey ??= loadReceiptKey({ seed: env.RECEIPT_SIGNING_KEY, dataDir: env.DATA_DIR });
  processKey.catch(() => {
    processKey = undefined;
  });
  return processKey;
}
