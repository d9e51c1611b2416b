import { createHmac, randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { signatureHeaders, signingKey, whsecSecretProblem } from "./sign.ts";

const secret = `whsec_${randomBytes(32).toString("base64")}`;
const body = JSON.stringify({ event: "watch.fire", watch_id: "wat_0123456789abcdef01234567", note: "é ✓" });
const id = "msg_0123456789abcdef01234567";

describe("signatureHeaders", () => {
  it("verifies with the standardwebhooks library", () => {
    const now = Math.floor(Date.now() / 1000);
    const headers = signatureHeaders({ secret, id, timestampSeconds: now, body });
    const verified = new Webhook(secret).verify(body, headers);
    expect(verified).toEqual(JSON.parse(body));
  });

  it("fails the library's verification for a changed body or another secret", () => {
    const headers = signatureHeaders({ secret, id, timestampSeconds: Math.floor(Date.now() / 1000), body });
    expect(() => new Webhook(secret).verify(body.replace("fire", "fyre"), headers)).toThrow();
    expect(() => new Webhook(`whsec_${randomBytes(32).toString("base64")}`).verify(body, headers)).toThrow();
  });

  it("X-Service-Signature is the hex HMAC-SHA256 of the raw body under the decoded whsec_ key", () => {
    const headers = signatureHeaders({ secret, id, timestampSeconds: 1_700_000_000, body });
    const key = Buffer.from(secret.split("_")[1]!, "base64");
    const expected = createHmac("sha256", key).update(Buffer.from(body, "utf8")).digest("hex");
    expect(headers["x-service-signature"]).toBe(`sha256=${expected}`);
    expect(headers["webhook-timestamp"]).toBe("1700000000");
    expect(headers["webhook-id"]).toBe(id);
  });

  it("uses a secret not in whsec_ form as its UTF-8 bytes", () => {
    expect(signingKey("plain-secret-of-agent").toString("utf8")).toBe("plain-secret-of-agent");
    expect(signingKey("whsec_not*base64").toString("utf8")).toBe("whsec_not*base64");
  });
});

describe("whsecSecretProblem", () => {
  const refused = [
    "whsec_GRV8U6emhPBdnoV5oNsshxGVaas", // unpadded
    "whsec_9-66QUsJRQ8RlnFyRDE_17CrMH0", // base64url
    "whsec_GRV8U6emhPBdnoV5oNsshxGVaas==", // too much padding
    "whsec_GRV8U6emhPBdnoV5oNssh xGVaas=", // a space
    "whsec_GRV8U6emhPBdnoV5oNsshxGVaat=", // non-zero bits after the last byte: not canonical
    "whsec_not*base64-at-all!",
    "whsec_AAAAAAAAAAAAAAAAAAA=", // 14 bytes: too short a key
  ];

  it("refuses a whsec_ secret that is not canonical padded standard base64 of at least 16 bytes", () => {
    for (const value of refused) expect(whsecSecretProblem(value), value).toMatch(/whsec_/);
    expect(whsecSecretProblem("whsec_9-66QUsJRQ8RlnFyRDE_17CrMH0")).toMatch(/canonical padded standard base64/);
    expect(whsecSecretProblem("whsec_AAAAAAAAAAAAAAAAAAA=")).toMatch(/at least 16 bytes/);
  });

  it("accepts canonical whsec_ secrets and any secret without the prefix", () => {
    for (const bytes of [16, 17, 18, 32, 64]) {
      const value = `whsec_${randomBytes(bytes).toString("base64")}`;
      expect(whsecSecretProblem(value), value).toBeNull();
    }
    expect(whsecSecretProblem("plain-secret-of-agent")).toBeNull();
    expect(whsecSecretProblem("whsec_GRV8U6emhPBdnoV5oNsshxGVaas=")).toBeNull();
    expect(whsecSecretProblem("WHSEC_GRV8U6emhPBdnoV5oNsshxGVaas")).toBeNull();
  });

  it("every accepted whsec_ secret signs what the standardwebhooks library verifies; the refused forms would not", () => {
    const now = Math.floor(Date.now() / 1000);
    for (let i = 0; i < 50; i++) {
      const value = `whsec_${randomBytes(16 + (i % 20)).toString("base64")}`;
      expect(whsecSecretProblem(value)).toBeNull();
      expect(new Webhook(value).verify(body, signatureHeaders({ secret: value, id, timestampSeconds: now, body }))).toEqual(JSON.parse(body));
    }
    for (const value of refused.slice(0, 2)) {
      expect(() => new Webhook(value).verify(body, signatureHeaders({ secret: value, id, timestampSeconds: now, body })), value).toThrow();
    }
  });
});
