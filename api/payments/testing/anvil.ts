/** Start a local anvil chain for payment tests (chain id 8453 by default, so configs read like Base's). */
import { startAnvil as startLocalAnvil, type Anvil } from "../test-chain/anvil.ts";

export { AnvilError, type Anvil } from "../test-chain/anvil.ts";

/** Start anvil on 127.0.0.1 and a free port with `chainId` (default 8453). */
export function startAnvil(options: { chainId?: number } = {}): Promise<Anvil> {
  return startLocalAnvil({ chainId: options.chainId ?? 8453 });
}
