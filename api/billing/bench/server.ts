/**
 * The server side of `npm run bench:premium`, run as its own process: a throwaway embedded Postgres, one
 * token with plenty of credits, and the premium routing route served by two apps on two ports — billed
 * (credential, validate, run, decide, group commit, sign) and under PREMIUM_BILLING=off (validate, run).
 * Breakers are set out of reach (a benchmark is exactly the runaway loop they exist to stop). GET /bench/stats
 * on the billed port answers the group-commit counters, this process's resident memory and the event loop's busy
 * time so far in ms (performance.eventLoopUtilization: the main thread's share of the work). Prints one JSON
 * line `{ paidPort, offPort, token }`, then serves until SIGTERM.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { toNodeHandler } from "h3";
import { createApp, type AnyRoute } from "../../app.ts";
import { premiumRoutingRoutes } from "../../routes/premium-routing.ts";
import { SnapshotStore } from "../../serve/snapshot-store.ts";
import { openTempDatabase } from "../../state/testing/temp-database.ts";
import { Breakers } from "../breakers.ts";
import { createCredits } from "../credits.ts";
import { createPremiumGateway, type PremiumGateway } from "../premium.ts";
import { processReceiptKey } from "../receipt-key.ts";
import { createUnbilledGateway } from "../unbilled.ts";

const snapshotsDir = process.argv[2];
if (!snapshotsDir) throw new Error("usage: bench/server.ts <snapshots dir>");

const temp = await openTempDatabase();
const credits = createCredits(temp.db);
const { token, id } = await credits.mintToken(temp.db, { kind: "paid" });
await credits.grant(temp.db, id, 10_000_000, { reason: "purchase", ref: "bench" });

const route = premiumRoutingRoutes[0]! as AnyRoute;
const store = new SnapshotStore(resolve(snapshotsDir), { onWarn: () => {} });
await store.start();
const far = { max: 1_000_000_000, windowSeconds: 1 };
const paid = createPremiumGateway({
  db: temp.db,
  credits,
  receiptKey: () => processReceiptKey(),
  payments: null,
  breakers: new Breakers({ thresholds: { identical_request: far, burn_rate: far } }),
});

function listen(premium: PremiumGateway, extra?: (url: string) => string | null): Promise<Server> {
  const built = createApp({ routes: [route], snapshots: store, baseUrl: "http://127.0.0.1", rateLimitPerMinute: 0, trustProxy: null, premium });
  const listener = toNodeHandler(built.app);
  const server = createServer((req, res) => {
    const answer = extra?.(req.url ?? "");
    if (answer !== null && answer !== undefined) {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(answer);
      return;
    }
    void listener(req, res);
  });
  return new Promise((ok) => server.listen(0, "127.0.0.1", () => ok(server)));
}

const stats = (url: string) =>
  url === "/bench/stats"
    ? JSON.stringify({ commits: paid.groupCommit?.commits ?? 0, settled: paid.groupCommit?.settled ?? 0, rssMb: Math.round(process.memoryUsage().rss / 1048576), loopBusyMs: performance.eventLoopUtilization().active })
    : null;
const servers = await Promise.all([listen(paid, stats), listen(createUnbilledGateway())]);
const [paidPort, offPort] = servers.map((s) => (s.address() as AddressInfo).port);
process.stdout.write(`${JSON.stringify({ paidPort, offPort, token })}\n`);

process.removeAllListeners("SIGTERM");
process.once("SIGTERM", () => {
  for (const s of servers) s.close();
  store.close();
  void temp.close().finally(() => process.exit(0));
});
