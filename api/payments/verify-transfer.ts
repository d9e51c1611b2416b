/**
 * On-chain verification of a USDC payment: the receipt succeeded, it carries a Transfer log emitted by the
 * configured USDC contract from the quote's wallet to the publisher wallet, its block lies inside the quote's
 * window, and it has enough confirmations. Amounts come back as integers of base units.
 */
import { TransactionNotFoundError, TransactionReceiptNotFoundError } from "viem";
import { ApiError } from "../registry/types.ts";
import type { ChainReader } from "./chain.ts";

/** topic0 of ERC-20 Transfer(address indexed from, address indexed to, uint256 value). */
export const TRANSFER_TOPIC = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef";

/** A verified payment. */
export interface VerifiedTransfer {
  /** Sum of the matching Transfer values, in base units. */
  units: bigint;
  blockNumber: bigint;
  blockTime: Date;
  confirmations: bigint;
}

/** What the transfer is checked against. */
export interface TransferExpectation {
  chainId: number;
  usdc: string;
  publisher: string;
  sender: string;
  windowStart: Date;
  windowEnd: Date;
  minConfirmations: number;
}

/**
 * How far a block's timestamp may lie before the quote's creation or after its expiry and still count as inside
 * its window: a chain's block clock and this server's clock are different clocks (a sequencer stamps a block
 * when it starts building it, a local node under load stamps late), and a transfer sent in a quote's last
 * seconds is mined in a later block. The transfer stays bound to the quote's wallet and is usable once, so the
 * tolerance only lets a payer claim their own transfer of a few seconds either side.
 */
export const CHAIN_CLOCK_SKEW_SECONDS = 30;

const topicAddress = (topic: string | undefined): string | undefined =>
  topic && /^0x0{24}[0-9a-fA-F]{40}$/.test(topic) ? `0x${topic.slice(26).toLowerCase()}` : undefined;

/** Wrap a failing RPC call as 503 chain_unavailable. */
async function rpc<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (err instanceof TransactionReceiptNotFoundError || err instanceof TransactionNotFoundError) throw err;
    throw new ApiError(503, "chain_unavailable", `reading ${what} from the chain failed: ${(err as Error).message.split("\n")[0]}`);
  }
}

/** Verify `txHash` against the expectation; throws ApiError with the failing rule's code. */
export async function verifyTransfer(chain: ChainReader, txHash: `0x${string}`, expect: TransferExpectation): Promise<VerifiedTransfer> {
  const chainId = await rpc("the chain id", () => chain.getChainId());
  if (chainId !== expect.chainId) {
    throw new ApiError(503, "chain_mismatch", `the RPC endpoint serves chain ${chainId}, but CHAIN_ID is ${expect.chainId}`);
  }
  let receipt;
  try {
    receipt = await rpc("the receipt", () => chain.getTransactionReceipt({ hash: txHash }));
  } catch (err) {
    if (!(err instanceof TransactionReceiptNotFoundError)) throw err;
    const pending = await rpc("the transaction", () => chain.getTransaction({ hash: txHash })).catch((e: unknown) => {
      if (e instanceof TransactionNotFoundError) return undefined;
      throw e;
    });
    if (pending) throw new ApiError(409, "tx_pending", `transaction ${txHash} is not mined yet; retry confirm once it is`);
    throw new ApiError(404, "tx_not_found", `transaction ${txHash} is unknown to the chain (not broadcast, dropped, or not yet propagated); retry shortly`);
  }
  if (receipt.status !== "success") throw new ApiError(422, "tx_reverted", `transaction ${txHash} reverted; no USDC moved`);

  const transfers = receipt.logs.filter((log) => log.topics[0]?.toLowerCase() === TRANSFER_TOPIC && log.topics.length === 3);
  const usdc = transfers.filter((log) => log.address.toLowerCase() === expect.usdc.toLowerCase());
  if (usdc.length === 0) {
    if (transfers.length > 0) {
      throw new ApiError(422, "wrong_token", `transaction ${txHash} transfers a token other than USDC (${transfers[0]!.address}); only ${expect.usdc} is accepted`);
    }
    throw new ApiError(422, "no_usdc_transfer", `transaction ${txHash} contains no USDC Transfer`);
  }
  const toPublisher = usdc.filter((log) => topicAddress(log.topics[2]) === expect.publisher.toLowerCase());
  if (toPublisher.length === 0) {
    throw new ApiError(422, "wrong_recipient", `transaction ${txHash} sends USDC to ${topicAddress(usdc[0]!.topics[2])}, not to the publisher wallet ${expect.publisher}`);
  }
  const fromSender = toPublisher.filter((log) => topicAddress(log.topics[1]) === expect.sender.toLowerCase());
  if (fromSender.length === 0) {
    throw new ApiError(422, "sender_mismatch", `transaction ${txHash} pays from ${topicAddress(toPublisher[0]!.topics[1])}, but the quote is bound to ${expect.sender}`);
  }
  const units = fromSender.reduce((sum, log) => sum + BigInt(log.data), 0n);

  const block = await rpc("the block", () => chain.getBlock({ blockNumber: receipt.blockNumber }));
  const blockTime = new Date(Number(block.timestamp) * 1000);
  // block timestamps have whole seconds: compare against the quote's creation second less the clock skew, and
  // its expiry plus the skew
  const startSecond = Math.floor(expect.windowStart.getTime() / 1000) * 1000 - CHAIN_CLOCK_SKEW_SECONDS * 1000;
  const endMs = expect.windowEnd.getTime() + CHAIN_CLOCK_SKEW_SECONDS * 1000;
  if (blockTime.getTime() < startSecond || blockTime.getTime() > endMs) {
    throw new ApiError(422, "tx_outside_quote_window", `transaction ${txHash} was mined at ${blockTime.toISOString()}, outside the quote's window ${expect.windowStart.toISOString()} to ${expect.windowEnd.toISOString()}`);
  }
  const head = await rpc("the block number", () => chain.getBlockNumber({ cacheTime: 0 }));
  const confirmations = head >= receipt.blockNumber ? head - receipt.blockNumber + 1n : 0n;
  if (confirmations < BigInt(expect.minConfirmations)) {
    throw new ApiError(409, "insufficient_confirmations", `transaction ${txHash} has ${confirmations} confirmations; ${expect.minConfirmations} are required; retry shortly`, {
      confirmations: Number(confirmations),
      required: expect.minConfirmations,
    });
  }
  return { units, blockNumber: receipt.blockNumber, blockTime, confirmations };
}
