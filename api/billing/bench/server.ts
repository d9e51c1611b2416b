/**
 * The server side of `npm run bench:premium`, run as its own process: a throwaway embedded Postgres, one
 * token with plenty of credits, and the app serving the premium routing route twice — through the billing
 * wrapper (auth, hold, handler, commit, receipt) and, unpaid, the same render as a free route. Breakers are
 * set out of reach (a benchmark is exactly the runaway loop they exist to stop). Prints one JSON line
 * `{ port, token }`, then serves until SIGTERM.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { resolve } from "node:path";
import { toNodeHandler } from "h3";
import { createApp, type AnyRoute } from "../../app.ts";
import { premiumRoutingRoutes } from "../../routes/premium-routing.ts";
import { SnapshotStore } from "../../serve/snapshot-store.ts";
import { openTempDatabase } from "../../state/testing/temp-database.ts";
import { Breakers } from "../breakers.ts";
import { createCredits } from "../credits.ts";
import { createPremiumGateway } from "../premium.ts";
import { processReceiptKey } from "../receipt-key.ts";

const snapshotsDir = process.argv[2];
if (!snapshotsDir) throw new Error("usage: bench/server.ts <snapshots dir>");

const temp = await openTempDatabase();
const credits = createCredits(temp.db);
const { token, id } = await credits.mintToken(temp.db, { kind: "paid" });
await credits.grant(temp.db, id, 10_000_000, { reason: "purchase", ref: "bench" });

const paid = premiumRoutingRoutes[0]! as AnyRoute;
const unpaid: AnyRoute = { ...paid, path: "/bench/unpaid/routing", tier: "free", cost: undefined };
const store = new SnapshotStore(resolve(snapshotsDir), { onWarn: () => {} });
await store.start();
const far = { max: 1_000_000_000, windowSeconds: 1 };
const built = createApp({
  routes: [paid, unpaid],
  snapshots: store,
  baseUrl: "http://127.0.0.1",
  rateLimitPerMinute: 0,
  trustProxy: null,
  // The unpaid twin must run its render on every call, as the paid route does: no response cache.
  cache: { maxEntries: 0 },
  premium: createPremiumGateway({
    db: temp.db,
    credits,
    receiptKey: () => processReceiptKey(),
    payments: null,
    breakers: new Breakers({ thresholds: { identical_request: far, burn_rate: far } }),
  }),
});
const listener = toNodeHandler(built.app);
const server = createServer((req, res) => void listener(req, res));
await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
process.stdout.write(`${JSON.stringify({ port: (server.address() as AddressInfo).port, token })}\n`);

process.removeAllListeners("SIGTERM");
process.once("SIGTERM", () => {
  server.close();
  store.close();
  void temp.close().finally(() => process.exit(0));
});
