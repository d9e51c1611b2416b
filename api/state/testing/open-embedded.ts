/**
 * Opens the embedded database of a data folder in a process of its own, for tests that need a second owner or
 * another user: `tsx api/state/testing/open-embedded.ts <dataDir>` prints one JSON line, `{"ok":true,"where":…,
 * "pid":…}` once the database answers (then holds it until stdin closes or SIGTERM) or `{"ok":false,"message":…}`
 * and exits 1.
 */
import { openDatabase } from "../database.ts";

/** Open, report, hold until told to stop, close. */
export async function main(args: readonly string[]): Promise<void> {
  const [dataDir] = args;
  if (!dataDir) throw new Error("open-embedded: usage <dataDir>");
  let db;
  try {
    db = await openDatabase({ dataDir, databaseUrl: "" });
    const { rows } = await db.query<{ n: number }>("SELECT 40 + 2 AS n");
    process.stdout.write(`${JSON.stringify({ ok: rows[0]?.n === 42, where: db.where, pid: process.pid })}\n`);
  } catch (error) {
    process.stdout.write(`${JSON.stringify({ ok: false, message: (error as Error).message })}\n`);
    process.exitCode = 1;
    return;
  }
  await new Promise<void>((resolve) => {
    process.stdin.once("end", resolve);
    process.stdin.once("close", resolve);
    process.once("SIGTERM", resolve);
    process.stdin.resume();
  });
  await db.close();
}

await main(process.argv.slice(2));
