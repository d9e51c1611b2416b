/** Wallet addresses from requests: EIP-55 checksummed or all lower case; a mixed-case address with a bad checksum is refused. */
import { getAddress, isAddress } from "viem";
import { clip } from "../http/clip.ts";
import { ApiError } from "../registry/types.ts";

/** A parsed wallet: checksummed for display, lower case for storage and comparison. */
export interface Wallet {
  checksummed: `0x${string}`;
  lower: `0x${string}`;
}

/** Parse a wallet field; throws ApiError 400 `<code>` (default invalid_wallet) naming the field and value. */
export function parseWallet(value: string, field = "sender_wallet", code = "invalid_wallet"): Wallet {
  const v = value.trim();
  if (!/^0x[0-9a-fA-F]{40}$/.test(v)) {
    throw new ApiError(400, code, `${field} "${clip(value)}" is not an address (0x followed by 40 hex characters)`);
  }
  if (!isAddress(v, { strict: true })) {
    throw new ApiError(400, code, `${field} "${clip(value)}" is mixed case but its EIP-55 checksum is wrong; send it checksummed or all lower case`);
  }
  const checksummed = getAddress(v);
  return { checksummed, lower: checksummed.toLowerCase() as `0x${string}` };
}

/** Lower-case form of an address for comparisons. */
export function lowerAddress(value: string): string {
  return value.toLowerCase();
}
