/**
 * The server side of `npm run bench:premium`, run as its own process: a throwaway embedded Postgres, one
 * token with plenty of credits, and the premium routing route served by two apps on two ports — billed
 * (credential, validate, run, decide, group commit, sign) and under PREMIUM_BILLING=off (validate, run).
 * Breakers are set out of reach (a benchmark is exactly the runaway loop they exist to stop). GET /bench/stats
 * on the billed port answers the group-commit counters, this process's resident memory and the event loop's busy
 * time so far in ms (performance.eventLoopUtilization: the main thread's share of the work). GET
 * /bench/in-process?n=N calls both apps N times each without HTTP (`app.request`, 16 callers at a time,
 * paid then off, twice) and answers the main thread's busy time and the wall time per call of each: what the
 * billing wrapper itself costs the event loop, apart from sockets and the load generator. Prints one JSON
 * line `{ paidPort, offPort, token }`, then serves until SIGTERM.
 */
// First, as in server.ts: the measured process optimizes nextTick the way the real server does.
import "../../http/prime-next-tick.ts";
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

type App = ReturnType<typeof createApp>["app"];
const appOf = (premium: PremiumGateway): App =>
  createApp({ routes: [route], snapshots: store, baseUrl: "http://127.0.0.1", rateLimitPerMinute: 0, trustProxy: null, premium }).app;
const paidApp = appOf(paid);
const offApp = appOf(createUnbilledGateway());

function listen(app: App, extra?: (url: string) => Promise<string> | null): Promise<Server> {
  const listener = toNodeHandler(app);
  const server = createServer((req, res) => {
    const answer = extra?.(req.url ?? "");
    if (answer) {
      void answer.then((text) => {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(text);
      });
      return;
    }
    void listener(req, res);
  });
  return new Promise((ok) => server.listen(0, "127.0.0.1", () => ok(server)));
}

/** Main-thread busy time and wall time per call, in µs. */
interface PerCall {
  loopUs: number;
  wallUs: number;
}

/** `n` calls of the benchmarked query on `app`, 16 at a time, without HTTP. */
async function inProcess(app: App, headers: Record<string, string>, n: number): Promise<PerCall> {
  const url = "http://127.0.0.1/api/premium/routing?task=code&top_n=5";
  const start = performance.eventLoopUtilization();
  const t0 = performance.now();
  let left = n;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (left-- > 0) {
        const res = await app.request(url, { headers });
        await res.text();
        if (res.status !== 200) throw new Error(`in-process call answered ${res.status}`);
      }
    }),
  );
  const busy = performance.eventLoopUtilization(start);
  return { loopUs: (busy.active * 1000) / n, wallUs: ((performance.now() - t0) * 1000) / n };
}

async function inProcessRounds(n: number): Promise<string> {
  const paidRuns: PerCall[] = [];
  const offRuns: PerCall[] = [];
  for (let round = 0; round < 2; round++) {
    paidRuns.push(await inProcess(paidApp, { authorization: `Bearer ${token}` }, n));
    offRuns.push(await inProcess(offApp, {}, n));
  }
  const mean = (runs: PerCall[]): PerCall => ({ loopUs: (runs[0]!.loopUs + runs[1]!.loopUs) / 2, wallUs: (runs[0]!.wallUs + runs[1]!.wallUs) / 2 });
  return JSON.stringify({ paid: mean(paidRuns), off: mean(offRuns) });
}

const control = (url: string): Promise<string> | null => {
  if (url === "/bench/stats") {
    return Promise.resolve(
      JSON.stringify({ commits: paid.groupCommit?.commits ?? 0, settled: paid.groupCommit?.settled ?? 0, rssMb: Math.round(process.memoryUsage().rss / 1048576), loopBusyMs: performance.eventLoopUtilization().active }),
    );
  }
  const inProcessCalls = /^\/bench\/in-process\?n=(\d{1,6})$/.exec(url);
  return inProcessCalls ? inProcessRounds(Number(inProcessCalls[1])) : null;
};
const servers = await Promise.all([listen(paidApp, control), listen(offApp)]);
const [paidPort, offPort] = servers.map((s) => (s.address() as AddressInfo).port);
process.stdout.write(`${JSON.stringify({ paidPort, offPort, token })}\n`);

process.removeAllListeners("SIGTERM");
process.once("SIGTERM", () => {
  for (const s of servers) s.close();
  store.close();
  void temp.close().finally(() => process.exit(0));
});
