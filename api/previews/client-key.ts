/**
 * Who a preview call counts against, without storing who it was: the client address reduced to what one client
 * controls (an IPv4 address; an IPv6 address's /64, since one subscriber usually holds a whole /64; an
 * IPv4-mapped IPv6 address as its IPv4), then HMAC-SHA256 over the UTC day and that address with a secret key,
 * so a stored hash names no address and cannot be joined across days.
 */
import { createHmac } from "node:crypto";
import { isIPv4, isIPv6 } from "node:net";

/** Longest client address text considered (a full IPv6 address with zone is well under this). */
const MAX_ADDRESS = 100;

/** The part of a client address that quotas count: IPv4 as is, IPv6 as its /64 (`2001:db8:1:2::/64`). */
export function quotaSubject(address: string): string {
  const text = address.trim().toLowerCase().slice(0, MAX_ADDRESS);
  if (isIPv4(text)) return text;
  const bare = text.replace(/%.*$/, "");
  if (!isIPv6(bare)) return text === "" ? "unknown" : text;
  const groups = expandIPv6(bare);
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join(".");
  }
  return `${groups.slice(0, 4).map((g) => g.toString(16)).join(":")}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (compressed or with an embedded IPv4 tail). */
function expandIPv6(address: string): number[] {
  let text = address;
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4[1]!.split(".").map(Number) as [number, number, number, number];
    text = `${text.slice(0, -v4[1]!.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes("::") ? (text.split("::") as [string, string]) : [text, undefined];
  const left = head ? head.split(":") : [];
  const right = tail === undefined ? [] : tail ? tail.split(":") : [];
  const zeros = tail === undefined ? [] : Array<string>(8 - left.length - right.length).fill("0");
  return [...left, ...zeros, ...right].map((g) => parseInt(g, 16));
}

/** The stored hash of a client on a UTC day (YYYY-MM-DD): 64 hex characters. */
export function clientHash(key: Uint8Array, day: string, address: string): string {
  return createHmac("sha256", key).update(`${day}\n${quotaSubject(address)}`).digest("hex");
}
