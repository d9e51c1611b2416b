/**
 * Random ids for the paid path (receipt ids, charge ids): hex from a pool of CSPRNG bytes filled 4 KiB at a
 * time, as Node does for randomUUID, instead of one randomBytes call (a system call's worth of work) per id.
 * The bytes are the same quality; each is handed out once.
 */
import { randomFillSync } from "node:crypto";

const POOL_BYTES = 4096;
const pool = Buffer.alloc(POOL_BYTES);
let offset = POOL_BYTES;

/** `bytes` fresh random bytes as lower-case hex (2 × bytes characters). */
export function randomHex(bytes: number): string {
  if (!Number.isSafeInteger(bytes) || bytes < 1 || bytes > POOL_BYTES) throw new Error(`randomHex: 1 to ${POOL_BYTES} bytes, got ${bytes}`);
  if (offset + bytes > POOL_BYTES) {
    randomFillSync(pool);
    offset = 0;
  }
  const hex = pool.toString("hex", offset, offset + bytes);
  offset += bytes;
  return hex;
}
