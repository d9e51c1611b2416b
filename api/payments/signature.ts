/** EIP-191 personal_sign verification (externally owned accounts) with viem. */
import { verifyMessage } from "viem";

/** True when `signature` is `address`'s EIP-191 signature over `message`; malformed signatures are false. */
export async function verifyPersonalSign(address: `0x${string}`, message: string, signature: string): Promise<boolean> {
  if (!/^0x[0-9a-fA-F]{130}$/.test(signature)) return false;
  try {
    return await verifyMessage({ address, message, signature: signature as `0x${string}` });
  } catch {
    return false;
  }
}
