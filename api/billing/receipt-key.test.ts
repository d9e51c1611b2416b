import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createHash } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { keyIdOf, loadReceiptKey, parseSeed, publicJwk, ReceiptKeyError } from "./receipt-key.ts";

const dirs: string[] = [];
async function tempDir(): Promise<string> {
  const d = await mkdtemp(join(tmpdir(), "agentfeed-rkey-"));
  dirs.push(d);
  return d;
}
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

describe("loadReceiptKey()", () => {
  it("loadReceiptKey() generates a key once, stores it with mode 0600 and loads the same key again", async () => {
    const dir = await tempDir();
    const first = await loadReceiptKey({ dataDir: dir });
    expect(first.source).toBe("generated");
    const file = join(dir, "receipt-key.json");
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const second = await loadReceiptKey({ dataDir: dir });
    expect(second.source).toBe("file");
    expect(second.kid).toBe(first.kid);
    expect(Buffer.from(second.publicKey).equals(Buffer.from(first.publicKey))).toBe(true);
    expect(JSON.parse(await readFile(file, "utf8"))).toMatchObject({ kid: first.kid, alg: "EdDSA", crv: "Ed25519" });
  });

  it("loadReceiptKey() prefers RECEIPT_SIGNING_KEY in hex or base64url, which give the same key", async () => {
    const seed = Buffer.alloc(32, 7);
    const dir = await tempDir();
    const hex = await loadReceiptKey({ seed: seed.toString("hex"), dataDir: dir });
    const b64 = await loadReceiptKey({ seed: seed.toString("base64url") });
    expect(hex.source).toBe("env");
    expect(hex.kid).toBe(b64.kid);
    expect(hex.kid).toBe(createHash("sha256").update(hex.publicKey).digest("hex").slice(0, 16));
    expect(keyIdOf(hex.publicKey)).toHaveLength(16);
    await expect(stat(join(dir, "receipt-key.json"))).rejects.toThrow();
  });

  it("parseSeed() refuses a wrong length without echoing the value", () => {
    expect(() => parseSeed("abcd")).toThrow(ReceiptKeyError);
    expect(() => parseSeed("secretsecret")).toThrow(/got 12 characters/);
    try {
      parseSeed("secretsecret");
    } catch (e) {
      expect((e as Error).message).not.toContain("secretsecret");
    }
  });

  it("loadReceiptKey() refuses a key file whose kid does not match its seed", async () => {
    const dir = await tempDir();
    await writeFile(join(dir, "receipt-key.json"), JSON.stringify({ kid: "0000000000000000", seed: Buffer.alloc(32, 1).toString("base64url") }));
    await expect(loadReceiptKey({ dataDir: dir })).rejects.toThrow(/says kid 0000000000000000/);
  });

  it("publicJwk() gives the JWK-like public form only", async () => {
    const key = await loadReceiptKey({ seed: Buffer.alloc(32, 9).toString("hex") });
    const jwk = publicJwk(key);
    expect(Object.keys(jwk).sort()).toEqual(["alg", "crv", "kid", "kty", "use", "x"]);
    expect(Buffer.from(jwk.x, "base64url")).toHaveLength(32);
  });
});
