/**
 * The client address used for rate limiting: the socket peer, unless TRUST_PROXY trusts that peer, in which
 * case proxy-addr walks X-Forwarded-For right to left and stops at the first untrusted hop.
 */
import type { IncomingMessage } from "node:http";
import proxyaddr from "proxy-addr";
import { splitTrust } from "../config.ts";

/** Resolves the client address from the peer address and the X-Forwarded-For header. */
export type ClientIpResolver = (peer: string | undefined, forwardedFor: string | null) => string;

/** Build a resolver for a TRUST_PROXY value (null: trust no proxy, the header is ignored). */
export function createClientIp(trustProxy: string | null): ClientIpResolver {
  if (trustProxy === null) return (peer) => peer ?? "unknown";
  const trust = proxyaddr.compile(splitTrust(trustProxy));
  return (peer, forwardedFor) => {
    if (!peer) return "unknown";
    // proxy-addr reads only these two fields of the request.
    const req = {
      socket: { remoteAddress: peer },
      connection: { remoteAddress: peer },
      headers: forwardedFor ? { "x-forwarded-for": forwardedFor } : {},
    } as unknown as IncomingMessage;
    return proxyaddr(req, trust);
  };
}
