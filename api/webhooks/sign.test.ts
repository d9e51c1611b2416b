import { createHmac, randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { signatureHeaders, signingKey } from "./sign.ts";

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
