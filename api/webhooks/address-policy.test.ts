/**
 * Cloud metadata in IPv6 embeddings: every IPv6 form that embeds an IPv4 address is judged by that IPv4 for the
 * metadata check, so it is refused with private callbacks allowed as well as off, at registration and at delivery.
 */
import ipaddr from "ipaddr.js";
import { describe, expect, it } from "vitest";
import { classifyAddress, embeddedIPv4, isMetadataAddress } from "./address-policy.ts";
import { checkCallbackUrl, type LookupAll } from "./callback-check.ts";
import { sendWebhook } from "./send.ts";

/** 169.254.169.254 (a9fe:a9fe) in each IPv6 embedding, and the AWS IPv6 metadata address spelled out. */
const METADATA_FORMS: [string, string][] = [
  ["IPv4-mapped, dotted", "::ffff:169.254.169.254"],
  ["IPv4-mapped, hex", "::ffff:a9fe:a9fe"],
  ["RFC 6145 translated", "::ffff:0:a9fe:a9fe"],
  ["IPv4-compatible, dotted", "::169.254.169.254"],
  ["IPv4-compatible, hex", "::a9fe:a9fe"],
  ["NAT64 64:ff9b::/96", "64:ff9b::a9fe:a9fe"],
  ["NAT64 64:ff9b::/96, dotted", "64:ff9b::169.254.169.254"],
  ["NAT64 local-use 64:ff9b:1::/48, /96 position", "64:ff9b:1::a9fe:a9fe"],
  ["NAT64 local-use, /48 position", "64:ff9b:1:a9fe:a9:fe00::"],
  ["NAT64 local-use, /56 position", "64:ff9b:1:a9:fe:a9fe::"],
  ["NAT64 local-use, /64 position", "64:ff9b:1:0:a9:fea9:fe00:0"],
  ["6to4", "2002:a9fe:a9fe::"],
  ["6to4 with a host part", "2002:a9fe:a9fe:1::1"],
  ["Teredo server", "2001:0:a9fe:a9fe::1"],
  ["Teredo client (inverted)", "2001:0:4136:e378:8000:63bf:5601:5601"],
  ["AWS IPv6 metadata", "fd00:ec2::254"],
  ["AWS IPv6 metadata, spelled out", "fd00:0ec2:0000:0000:0000:0000:0000:0254"],
  ["NAT64 of Alibaba 100.100.100.200", "64:ff9b::6464:64c8"],
  ["6to4 of ECS 169.254.170.2", "2002:a9fe:aa02::"],
];

/** Embeddings of loopback and private addresses: not metadata, so allowed when private callbacks are. */
const PRIVATE_FORMS = ["::ffff:127.0.0.1", "::7f00:1", "64:ff9b::7f00:1", "2002:7f00:1::1", "2001:0:a00:1::1"];

const lookup: LookupAll = async (hostname) => {
  const table: Record<string, string> = { "compat.rebind.test": "::a9fe:a9fe", "nat64.rebind.test": "64:ff9b::a9fe:a9fe", "sixtofour.rebind.test": "2002:a9fe:a9fe::" };
  const found = table[hostname];
  if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
  return [{ address: found, family: 6 }];
};

describe("embeddedIPv4", () => {
  it("extracts the embedded IPv4 of each embedding form", () => {
    const of = (text: string) => embeddedIPv4(ipaddr.IPv6.parse(text)).map(String);
    expect(of("::ffff:a9fe:a9fe")).toEqual(["169.254.169.254"]);
    expect(of("::ffff:0:a9fe:a9fe")).toEqual(["169.254.169.254"]);
    expect(of("::a9fe:a9fe")).toEqual(["169.254.169.254"]);
    expect(of("64:ff9b::a9fe:a9fe")).toEqual(["169.254.169.254"]);
    expect(of("64:ff9b:1:a9fe:a9:fe00::")).toContain("169.254.169.254");
    expect(of("64:ff9b:1:a9:fe:a9fe::")).toContain("169.254.169.254");
    expect(of("64:ff9b:1:0:a9:fea9:fe00:0")).toContain("169.254.169.254");
    expect(of("64:ff9b:1::a9fe:a9fe")).toContain("169.254.169.254");
    expect(of("2002:a9fe:a9fe::")).toEqual(["169.254.169.254"]);
    expect(of("2001:0:a9fe:a9fe:8000:63bf:3fff:fdd2")).toEqual(["169.254.169.254", "192.0.2.45"]);
  });

  it("finds nothing in a plain global or unique-local IPv6 address", () => {
    expect(embeddedIPv4(ipaddr.IPv6.parse("2606:4700:4700::1111"))).toEqual([]);
    expect(embeddedIPv4(ipaddr.IPv6.parse("fd00:ec2::254"))).toEqual([]);
  });
});

describe("isMetadataAddress", () => {
  it.each(METADATA_FORMS)("is true for %s (%s)", (_name, text) => {
    expect(isMetadataAddress(text)).toBe(true);
  });

  it("is false for public and for non-metadata private addresses and their embeddings", () => {
    for (const text of ["93.184.215.14", "2606:4700:4700::1111", "169.254.169.253", "::ffff:169.254.169.253", "fd00:ec2::253", ...PRIVATE_FORMS]) {
      expect(isMetadataAddress(text), text).toBe(false);
    }
  });

  it("every embedding form is also refused by the default policy", () => {
    for (const [, text] of METADATA_FORMS) expect(classifyAddress(text).public, text).toBe(false);
  });
});

describe("metadata embeddings in callback URLs", () => {
  for (const allowPrivate of [false, true]) {
    it.each(METADATA_FORMS)(`refuses %s at registration (allowPrivate ${allowPrivate})`, async (_name, text) => {
      const result = await checkCallbackUrl(`http://[${text}]/hook`, { allowPrivate, lookup });
      expect(result).toMatchObject({ ok: false, error: "callback_not_public" });
      if (!result.ok) expect(result.message).toMatch(/cloud metadata/);
    });

    it(`refuses names resolving to an embedded metadata address (allowPrivate ${allowPrivate})`, async () => {
      for (const name of ["compat.rebind.test", "nat64.rebind.test", "sixtofour.rebind.test"]) {
        const result = await checkCallbackUrl(`http://${name}/hook`, { allowPrivate, lookup });
        expect(result, name).toMatchObject({ ok: false, error: "callback_not_public" });
      }
    });

    it(`refuses them at delivery, before connecting (allowPrivate ${allowPrivate})`, async () => {
      for (const [, text] of METADATA_FORMS) {
        const outcome = await sendWebhook({ url: `http://[${text}]/hook`, body: "{}", headers: {}, allowPrivate, lookup, timeoutMs: 2000 });
        expect(outcome, text).toMatchObject({ delivered: false, statusCode: null });
        expect(outcome.error, text).toMatch(/^callback_not_public: .*cloud metadata/);
      }
    });
  }

  it("still accepts embeddings of loopback and private addresses when private callbacks are allowed", async () => {
    for (const text of PRIVATE_FORMS) {
      expect(await checkCallbackUrl(`http://[${text}]/hook`, { allowPrivate: true, lookup }), text).toEqual({ ok: true });
      expect(await checkCallbackUrl(`http://[${text}]/hook`, { allowPrivate: false, lookup }), text).toMatchObject({ ok: false, error: "callback_not_public" });
    }
  });
});
