/**
 * Which IP addresses a webhook may be sent to. An allow-list, not a deny-list: an address is public only when
 * ipaddr.js classifies it as plain `unicast` (every special range it knows — loopback, RFC 1918 private,
 * link-local, carrier-grade NAT, multicast, unspecified, broadcast, documentation, benchmarking, reserved,
 * AS112, unique-local, IPv4-mapped, RFC 6145 translated, NAT64 (RFC 6052/8215), 6to4, Teredo, ORCHID —
 * is refused), and an IPv6 address must also lie in global unicast 2000::/3 (so the IPv4-compatible ::a.b.c.d,
 * site-local and every future special range outside it are refused too). Cloud metadata addresses
 * (169.254.169.254, fd00:ec2::254) fall in link-local and unique-local.
 */
import ipaddr from "ipaddr.js";

/** Cloud metadata service names: refused before any lookup, even when private callbacks are allowed. */
const METADATA_NAMES = [/^metadata\.google\.internal$/, /^metadata$/, /^instance-data(\.ec2\.internal)?$/];
/** The loopback names of RFC 6761: refused before any lookup unless private callbacks are allowed. */
const LOOPBACK_NAMES = [/^localhost$/, /\.localhost$/];
/** Cloud metadata addresses: refused even when private callbacks are allowed (AWS/GCP/Azure, AWS IPv6, ECS, Alibaba). */
const METADATA_ADDRESSES = new Set(["169.254.169.254", "fd00:ec2::254", "169.254.170.2", "100.100.100.200"]);

const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR("2000::/3");

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

/** True for a cloud metadata address, in any IPv4-embedding IPv6 spelling too (::ffff:169.254.169.254). */
export function isMetadataAddress(text: string): boolean {
  if (!ipaddr.isValid(text)) return false;
  return METADATA_ADDRESSES.has(ipaddr.process(text).toString());
}
