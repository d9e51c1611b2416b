import { describe, expect, it } from "vitest";
import { clientHash, quotaSubject } from "./client-key.ts";

const KEY = new Uint8Array(32).fill(7);

describe("client-key", () => {
  it("quotaSubject() keeps IPv4, reduces IPv6 to its /64 and IPv4-mapped IPv6 to its IPv4", () => {
    expect(quotaSubject(" 203.0.113.9 ")).toBe("203.0.113.9");
    expect(quotaSubject("2001:DB8:0:1::5")).toBe("2001:db8:0:1::/64");
    expect(quotaSubject("2001:0db8:0000:0001:aaaa:bbbb:cccc:dddd")).toBe("2001:db8:0:1::/64");
    expect(quotaSubject("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
    expect(quotaSubject("::1")).toBe("0:0:0:0::/64");
    expect(quotaSubject("::ffff:192.0.2.77")).toBe("192.0.2.77");
    expect(quotaSubject("::ffff:c000:24d")).toBe("192.0.2.77");
    expect(quotaSubject("64:ff9b::192.0.2.1")).toBe("64:ff9b:0:0::/64");
  });

  it("quotaSubject() passes other text through bounded, and names an empty address unknown", () => {
    expect(quotaSubject("unknown")).toBe("unknown");
    expect(quotaSubject("")).toBe("unknown");
    expect(quotaSubject("x".repeat(500))).toHaveLength(100);
  });

  it("clientHash() is a 64-hex HMAC that changes with the day, the key and the /64, not within a /64", () => {
    const h = clientHash(KEY, "2026-11-23", "2001:db8:0:1::5");
    expect(h).toMatch(/^[0-9a-f]{64}$/);
    expect(clientHash(KEY, "2026-11-23", "2001:db8:0:1:ffff::9")).toBe(h);
    expect(clientHash(KEY, "2026-11-24", "2001:db8:0:1::5")).not.toBe(h);
    expect(clientHash(new Uint8Array(32).fill(8), "2026-11-23", "2001:db8:0:1::5")).not.toBe(h);
    expect(clientHash(KEY, "2026-11-23", "2001:db8:0:2::5")).not.toBe(h);
  });
});
