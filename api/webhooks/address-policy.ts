/**
 * Which IP addresses a webhook may be sent to. An allow-list, not a deny-list: an address is public only when
 * ipaddr.js classifies it as plain `unicast` (every special range it knows — loopback, RFC 1918 private,
 * link-local, carrier-grade NAT, multicast, unspecified, broadcast, documentation, benchmarking, reserved,
 * AS112, unique-local, IPv4-mapped, RFC 6145 translated, NAT64 (RFC 6052/8215), 6to4, Teredo, ORCHID —
 * is refused), and an IPv6 address must also lie in global unicast 2000::/3 (so the IPv4-compatible ::a.b.c.d,
 * site-local and every future special range outside it are refused too). Cloud metadata addresses
 * (169.254.169.254, fd00:ec2::254) fall in link-local and unique-local; `isMetadataAddress` also judges every
 * IPv6 form embedding an IPv4 address by that IPv4 (`embeddedIPv4`), so it holds when private callbacks are allowed.
 */
import ipaddr from "ipaddr.js";

/** Cloud metadata service names: refused before any lookup, even when private callbacks are allowed. */
const METADATA_NAMES = [/^metadata\.google\.internal$/, /^metadata$/, /^instance-data(\.ec2\.internal)?$/];
/** The loopback names of RFC 6761: refused before any lookup unless private callbacks are allowed. */
const LOOPBACK_NAMES = [/^localhost$/, /\.localhost$/];
/** Cloud metadata addresses: refused even when private callbacks are allowed (AWS/GCP/Azure, AWS IPv6, ECS, Alibaba). */
const METADATA_ADDRESSES = new Set(["169.254.169.254", "fd00:ec2::254", "169.254.170.2", "100.100.100.200"]);

const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR("2000::/3");
const IPV4_COMPATIBLE = ipaddr.parseCIDR("::/96");
const NAT64_WELL_KNOWN = ipaddr.parseCIDR("64:ff9b::/96");

/** The verdict on one address: public, or the range that makes it private. */
export type AddressVerdict = { public: true } | { public: false; range: string };

/** Classify an IP address text (v4 dotted or v6, no brackets); a text that is not an address is refused. */
export function classifyAddress(text: string): AddressVerdict {
  if (!ipaddr.isValid(text)) return { public: false, range: "not an IP address" };
  const address = ipaddr.parse(text);
  const range = address.range();
  if (range !== "unicast") return { public: false, range };
  if (address.kind() === "ipv6" && !address.match(GLOBAL_UNICAST_V6)) return { public: false, range: "outside global unicast 2000::/3" };
  return { public: true };
}

/** True for a cloud metadata service name (lower case, no trailing dot). */
export function isMetadataName(hostname: string): boolean {
  return METADATA_NAMES.some((pattern) => pattern.test(hostname));
}

/** True for localhost and *.localhost. */
export function isLoopbackName(hostname: string): boolean {
  return LOOPBACK_NAMES.some((pattern) => pattern.test(hostname));
}

/**
 * The IPv4 addresses an IPv6 address embeds, by the ipaddr.js range `classifyAddress` sees (empty for none):
 * IPv4-mapped ::ffff:0:0/96 and RFC 6145 ::ffff:0:0:0/96 (last 32 bits); NAT64 64:ff9b::/96 (last 32 bits) and
 * 64:ff9b:1::/48 (RFC 6052 positions for prefixes /48, /56, /64 and /96: every candidate); 6to4 2002::/16 (bits
 * 16–47); Teredo 2001::/32 (server, bits 32–63, and client, the last 32 bits inverted); IPv4-compatible ::/96
 * (last 32 bits; :: and ::1 included, which embed 0.0.0.0 and 0.0.0.1).
 */
export function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4[] {
  const b = address.toByteArray();
  const at = (...i: number[]) => new ipaddr.IPv4(i.map((k) => b[k]!));
  switch (address.range()) {
    case "ipv4Mapped":
    case "rfc6145":
      return [at(12, 13, 14, 15)];
    case "rfc6052":
      if (address.match(NAT64_WELL_KNOWN)) return [at(12, 13, 14, 15)];
      // Local-use prefix: bits 64–71 are skipped (RFC 6052 section 2.2).
      return [at(6, 7, 9, 10), at(7, 9, 10, 11), at(9, 10, 11, 12), at(12, 13, 14, 15)];
    case "6to4":
      return [at(2, 3, 4, 5)];
    case "teredo":
      return [at(4, 5, 6, 7), new ipaddr.IPv4(b.slice(12, 16).map((x) => x ^ 0xff))];
  }
  return address.match(IPV4_COMPATIBLE) ? [at(12, 13, 14, 15)] : [];
}

/** True for a cloud metadata address, and for any IPv6 address embedding one ({@link embeddedIPv4}). */
export function isMetadataAddress(text: string): boolean {
  if (!ipaddr.isValid(text)) return false;
  const address = ipaddr.parse(text);
  if (METADATA_ADDRESSES.has(address.toString())) return true;
  return address.kind() === "ipv6" && embeddedIPv4(address as ipaddr.IPv6).some((v4) => METADATA_ADDRESSES.has(v4.toString()));
}
