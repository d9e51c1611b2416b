/**
 * Load generator for the ledger tests, run as its own process against DATABASE_URL.
 * `burst <tokenId> <count>`: connect, print `ready`, wait for a line on stdin, then fire `count` concurrent
 * hold(1)+commit calls and print `{"held":n,"short":m}`.
 * `loop <tokenId> <concurrency>`: hold(1)+commit forever with `concurrency` workers, printing
 * `committed <holdId>` after each commit returns (the crash test kills it mid-load).
 */
import { createCredits } from "../../billing/credits.ts";
import { openDatabase } from "../database.ts";

/** Run the hammer with argv-style arguments. */
export async function main(args: readonly string[]): Promise<void> {
  const [mode, tokenId, countText] = args;
  const count = Number(countText);
  if (!tokenId || !Number.isInteger(count) || count <= 0 || (mode !== "burst" && mode !== "loop")) {
    throw new Error(`hammer: usage burst|loop <tokenId> <count>, got ${args.join(" ")}`);
  }
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) throw new Error("hammer: DATABASE_URL is not set");
  const db = await openDatabase({ databaseUrl, poolSize: 10 });
  const credits = createCredits(db);
  const once = async (): Promise<boolean> => {
    const hold = await credits.hold(tokenId, 1, { endpoint: "/hammer", requestHash: `pid-${process.pid}` });
    if (!hold) return false;
    await credits.commit(hold.holdId, { responseHash: "ok" });
    if (mode === "loop") process.stdout.write(`committed ${hold.holdId}\n`);
    return true;
  };
  if (mode === "burst") {
    // Connect first, then wait for the parent's "go" so several hammer processes fire at the same moment.
    await db.query("SELECT 1");
    process.stdout.write("ready\n");
    await new Promise<void>((resolve) => process.stdin.once("data", () => resolve()));
    process.stdin.pause();
    const results = await Promise.all(Array.from({ length: count }, once));
    const held = results.filter(Boolean).length;
    process.stdout.write(`${JSON.stringify({ held, short: count - held })}\n`);
    await db.close();
    return;
  }
  process.stdout.write("ready\n");
  await Promise.all(
    Array.from({ length: count }, async () => {
      for (;;) await once();
    }),
  );
}

await main(process.argv.slice(2));
