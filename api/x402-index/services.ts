/** The settlement index the premium x402-index routes read, set once by api/server.ts when it runs (503 without). */
import { ApiError } from "../registry/types.ts";
import type { Database } from "../state/types.ts";

/** What the settlement routes need: the state database and which chain and token the index reads. */
export interface X402IndexServices {
  db: Database;
  chainId: number;
  /** The token contract (USDC), lower-cased. */
  token: string;
}

let services: X402IndexServices | undefined;

/** Set (or clear) this process's settlement index. */
export function setX402IndexServices(value: X402IndexServices | undefined): void {
  services = value;
}

/** This process's settlement index; 503 x402_index_unavailable when it does not run. */
export function x402IndexServices(): X402IndexServices {
  if (!services) {
    throw new ApiError(
      503,
      "x402_index_unavailable",
      "the x402 settlement index does not run on this instance: it needs the state database and a chain (BASE_RPC_URL, or the local test chain), and X402_INDEX not off",
    );
  }
  return services;
}
