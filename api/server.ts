/**
 * Starts the API: loads the snapshots, opens the state database (embedded Postgres in DATA_DIR, or
 * DATABASE_URL) with the credit ledger, payments and the premium wrapper, builds the app from the registry
 * and listens with Node's http server. Run by `main` (`npm start` through api/start.ts, or `node --import tsx
 * api/server.ts [--no-schedule]`) it also starts the in-process pipeline scheduler and shuts down cleanly on
 * SIGINT, SIGTERM and SIGHUP.
 */
// First, before any other module runs: see the file.
import "./http/prime-next-tick.ts";
import { randomBytes } from "node:crypto";
import { mkdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createPublicClient, http } from "viem";
import { fileURLToPath } from "node:url";
import type { AddressInfo } from "node:net";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { toNodeHandler } from "h3";
import { createApp, largestBodyLimit, type AnyRoute } from "./app.ts";
import { loadConfig, type ApiConfig } from "./config.ts";
import { routes as registryRoutes } from "./registry/index.ts";
import { serverActivity } from "./activity/tracker.ts";
import { loadVerifier } from "./activity/crawler-ranges.ts";
import { createPaymentThrottle } from "./http/payment-throttle.ts";
import { failedRunLine } from "./health/failed-run.ts";
import { guardRequest, hardenServer, refuseWithoutHost, SERVER_OPTIONS } from "./http/node-guard.ts";
import { LayeredSnapshots } from "./serve/layered-snapshots.ts";
import type { SnapshotMeta } from "./registry/types.ts";
import { SnapshotStore } from "./serve/snapshot-store.ts";
import { attachWarehouseFiles, WarehouseFiles, type WarehouseDbBuilder } from "./serve/warehouse-files.ts";
import { WAREHOUSE_TABLES } from "../pipelines/contract/warehouse-tables.ts";
import { openWarehouseReader } from "./warehouse/reader.ts";
import { setMcpDispatch } from "./mcp/dispatch.ts";
import { createCredits } from "./billing/credits.ts";
import { startBillingHousekeeping, sweepBilling } from "./billing/housekeeping.ts";
import { setupPremium } from "./billing/setup.ts";
import { startExactPayments } from "./payments/x402-exact-setup.ts";
import { createUnbilledGateway } from "./billing/unbilled.ts";
import type { PremiumGateway } from "./billing/premium.ts";
import { startPayments, type StartedPayments } from "./payments/start.ts";
import { startPaymentHousekeeping } from "./payments/housekeeping.ts";
import { startPreviewHousekeeping } from "./previews/housekeeping.ts";
import { PreviewQuota } from "./previews/quota.ts";
import { processReceiptKey, ReceiptKeyError } from "./billing/receipt-key.ts";
import { setHealthChecks } from "./health/checks.ts";
import { setPaymentServices } from "./services.ts";
import { setWatchServices } from "./watches/services.ts";
import { startWatchEvaluation, type WatchEvaluation } from "./watches/schedule.ts";
import { loadX402IndexConfig } from "./x402-index/config.ts";
import { startSettlementIndexing, type SettlementIndexing } from "./x402-index/schedule.ts";
import { setX402IndexServices } from "./x402-index/services.ts";
import { openDatabase } from "./state/database.ts";
import { startDeliveryWorker, type DeliveryWorker } from "./webhooks/worker.ts";
import { startBanner } from "./start-banner.ts";
import { checkDatabaseUrl, DatabaseUrlError, describeOpenFailure } from "./state/database-url.ts";
import type { Database } from "./state/types.ts";
import { weatherAlertsUrlFrom, wireWeatherAlertsSource } from "./weather/default.ts";
import type { WeatherAlertsSource } from "../pipelines/contract/snapshots/weather-alerts.ts";
// The composition root is the one api/ module that may use pipelines/ beyond the contract: it wires the live
// weather source here and the in-process scheduler below (api/import-boundary.test.ts).
import { createLiveWeatherSource } from "../pipelines/feeds/weather-alerts-live.ts";
import { dataDirOf, makeDataDir } from "./state/data-dir.ts";
import { withoutRepeats } from "./repeat-warnings.ts";
import { isConnectionError } from "./state/unavailable.ts";
import { clip } from "./http/clip.ts";

/** The snapshots committed with the project. */
const BUNDLED_SNAPSHOTS = resolve(import.meta.dirname, "../snapshots");

/** Options for {@link startServer}; anything unset comes from the environment (api/config.ts). */
export interface StartOptions extends Partial<ApiConfig> {
  /** Routes to serve (default: the registry). */
  routes?: readonly AnyRoute[];
  /** Manifest mtime poll interval in ms (default 2000). */
  pollMs?: number;
  /**
   * A second snapshots folder this server's own scheduler writes (`npm start`: DATA_DIR/snapshots); served
   * together with SNAPSHOTS_DIR, the newer of the two per type (api/serve/layered-snapshots.ts).
   */
  localSnapshotsDir?: string;
  /** Receives warnings (unreadable snapshots, server faults). Default: stderr. */
  onWarn?: (message: string) => void;
  /**
   * State for credits, payments and premium routes: `false` serves data only (premium and payment routes
   * answer 503); otherwise DATABASE_URL or an embedded Postgres in DATA_DIR (default `.data`).
   */
  state?: false | { databaseUrl?: string; dataDir?: string; env?: Record<string, string | undefined> };
  /**
   * Where this server keeps the warehouse.duckdb it builds and serves (default: a temp folder removed at
   * close; `npm start`: DATA_DIR/warehouse.duckdb). Never inside the snapshots folders.
   */
  warehouseDbPath?: string;
  /** Build warehouse.duckdb at start and after every snapshot reload, not only when first asked for (`npm start` does). */
  warehouseEagerBuild?: boolean;
  /**
   * Live source of /api/climate/weather-alerts (default: the pipelines' NWS source at WEATHER_ALERTS_URL);
   * `false` wires none, so the route answers from the stored snapshot.
   */
  weatherSource?: WeatherAlertsSource | false;
}

/** A running server. */
export interface RunningServer {
  /** Base URL it listens on, e.g. http://127.0.0.1:40123 (no trailing slash). */
  url: string;
  port: number;
  config: ApiConfig;
  store: SnapshotStore;
  /** The snapshots as served: the bundled folder's and, with this server's own folder, per type the newer. */
  served: Pick<SnapshotStore, "types" | "meta">;
  /** This server's own snapshots folder (its scheduler writes there), when it has one. */
  localSnapshotsDir?: string;
  /** The state database, when state is on. */
  db?: Database;
  /** One line about payments: live, test chain, or off and why. */
  payments: string;
  /** Stop listening, drop open connections, stop watching snapshots. */
  close(): Promise<void>;
}

/** A stable name for a lost-database error (its code, else its class), so repeats of one kind are counted, not each written. */
function errorKind(err: unknown): string {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code === "string") return clip(code, 40);
  return err instanceof Error ? clip(err.message.split(/[:(\d]/)[0]!.trim() || err.name, 60) : "unknown";
}

/** The manifest entry of every type as served (what the start banner and the warehouse build describe). */
function servedManifest(served: Pick<SnapshotStore, "types" | "meta">): SnapshotMeta[] {
  return served.types().flatMap((type) => served.meta(type) ?? []);
}

/** Start the server; `port: 0` picks a free port. */
export async function startServer(options: StartOptions = {}): Promise<RunningServer> {
  const env = loadConfig();
  const config: ApiConfig = {
    port: options.port ?? env.port,
    host: options.host ?? env.host,
    publicBaseUrl: env.publicBaseUrl,
    snapshotsDir: options.snapshotsDir ?? env.snapshotsDir,
    rateLimitPerMinute: options.rateLimitPerMinute ?? env.rateLimitPerMinute,
    trustProxy: options.trustProxy !== undefined ? options.trustProxy : env.trustProxy,
    premiumBilling: options.premiumBilling ?? env.premiumBilling,
    paymentRateLimitPerMinute: options.paymentRateLimitPerMinute ?? env.paymentRateLimitPerMinute,
    allowPrivateCallbacks: env.allowPrivateCallbacks,
    warehouseMemoryMb: env.warehouseMemoryMb,
  };
  const warn = options.onWarn ?? ((m: string) => process.stderr.write(`agentfeed: ${m}\n`));
  const weatherSource = options.weatherSource ?? createLiveWeatherSource({ url: weatherAlertsUrlFrom(process.env) });
  const store = new SnapshotStore(resolve(config.snapshotsDir), { pollMs: options.pollMs, onWarn: warn });
  await store.start();
  let local: SnapshotStore | undefined;
  if (options.localSnapshotsDir) {
    // Made with the data folder's mode when it creates that folder too (DATA_DIR holds credentials: 0700).
    await mkdir(options.localSnapshotsDir, { recursive: true, mode: 0o700 });
    // An empty local folder has no manifest yet: that is expected, not worth a warning.
    local = new SnapshotStore(resolve(options.localSnapshotsDir), { pollMs: options.pollMs, onWarn: (m) => (m.startsWith("no manifest") ? undefined : warn(m)) });
    await local.start();
  }
  const served = local ? new LayeredSnapshots(store, local) : store;
  /** Stop watching both snapshot folders (every way out of the start, and close()). */
  const closeSnapshots = () => {
    store.close();
    local?.close();
  };

  // The warehouse files researchers download (api/serve/warehouse-files.ts): the served folders' day files
  // and a warehouse.duckdb this server builds from them, outside the tracked snapshots folder.
  const ownDbFolder = options.warehouseDbPath ? undefined : join(tmpdir(), `agentfeed-warehouse-${randomBytes(6).toString("hex")}`);
  const warehouse = new WarehouseFiles({
    dirs: local ? [local.dir, store.dir] : [store.dir],
    tables: WAREHOUSE_TABLES,
    dbPath: options.warehouseDbPath ? resolve(options.warehouseDbPath) : join(ownDbFolder!, "warehouse.duckdb"),
    build: buildWarehouse,
    manifest: () => servedManifest(served),
    onWarn: warn,
  });
  attachWarehouseFiles(served, warehouse);
  const buildNow = () => void warehouse.database().catch((err: unknown) => warn(`warehouse.duckdb build failed: ${(err as Error).message}`));
  const stopWarehouseWatch = served.onReload(() => {
    warehouse.invalidate();
    if (options.warehouseEagerBuild) buildNow();
  });
  if (options.warehouseEagerBuild) buildNow();
  const closeWarehouse = async () => {
    stopWarehouseWatch();
    await warehouse.idle();
    if (ownDbFolder) await rm(ownDbFolder, { recursive: true, force: true });
  };

  // Printed URLs follow the real port unless a public base URL was configured.
  const explicitBase = options.publicBaseUrl ?? (process.env.PUBLIC_BASE_URL ? env.publicBaseUrl : undefined);
  let baseUrl = explicitBase ?? `http://localhost:${config.port}`;
  // A lost state database fails every paid call until it is back (each answered 503 state_unavailable): one short
  // line a minute says so, with the count, instead of a stack trace per call.
  const stateLostWarn = withoutRepeats(warn);
  const onServerError = (err: unknown, where: string) =>
    isConnectionError(err)
      ? stateLostWarn(`calls answered 503 state_unavailable: the state database did not answer (${errorKind(err)})`)
      : warn(`${where} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);

  let db: Database | undefined;
  let premium: PremiumGateway | undefined;
  let paymentsLine = "off (state is off)";
  let stopHousekeeping: (() => void) | undefined;
  let deliveryWorker: DeliveryWorker | undefined;
  let payments: StartedPayments | undefined;
  let isKnownBearer: ((token: string) => Promise<boolean>) | undefined;
  let x402Index: ReturnType<typeof loadX402IndexConfig> | undefined;
  if (options.state !== false) {
    const state = options.state ?? {};
    const databaseUrl = state.databaseUrl ?? process.env.DATABASE_URL ?? "";
    // The receipt key (RECEIPT_SIGNING_KEY, else DATA_DIR/receipt-key.json, made at the first start) is read now:
    // a damaged key file fails the start in one line, instead of every paid call with a 500 later.
    try {
      await processReceiptKey();
    } catch (cause) {
      closeSnapshots();
      await closeWarehouse();
      const file = cause instanceof ReceiptKeyError && !process.env.RECEIPT_SIGNING_KEY?.trim();
      throw new Error(`${(cause as Error).message}${file ? " (restore it from a backup, or move it away to make a new key: receipts signed with the old key then no longer verify here)" : ""}`, { cause });
    }
    try {
      x402Index = loadX402IndexConfig(state.env ?? process.env);
    } catch (cause) {
      closeSnapshots();
      await closeWarehouse();
      throw cause;
    }
    try {
      if (databaseUrl) checkDatabaseUrl(databaseUrl);
      db = await openDatabase({
        ...(state.databaseUrl !== undefined ? { databaseUrl: state.databaseUrl } : {}),
        ...(state.dataDir !== undefined ? { dataDir: state.dataDir } : {}),
      });
    } catch (cause) {
      closeSnapshots();
      await closeWarehouse();
      throw new Error(cause instanceof DatabaseUrlError ? cause.message : describeOpenFailure(cause, databaseUrl || undefined), { cause });
    }
    const credits = createCredits(db);
    isKnownBearer = async (token) => (await credits.tokenByBearer(token)) !== undefined;
    // Holds a dead process never answered are released now and every few minutes; expired idempotency keys go too.
    // Housekeeping: a sweep that fails or outlasts the query time-out is said and retried by the next round.
    try {
      const { releasedHolds } = await sweepBilling(db, credits);
      if (releasedHolds > 0) warn(`released ${releasedHolds} charge hold(s) left unanswered by an earlier process`);
    } catch (err) {
      warn(`billing housekeeping at start failed (retried every few minutes): ${err instanceof Error ? err.message : String(err)}`);
    }
    stopHousekeeping = startBillingHousekeeping(db, credits, {
      onError: (err) => warn(`billing housekeeping failed: ${err instanceof Error ? err.message : String(err)}`),
      onSwept: ({ releasedHolds: n }) => {
        if (n > 0) warn(`released ${n} stale charge hold(s)`);
      },
    });
    const stopQuotePurge = startPaymentHousekeeping(db, {
      onError: (err) => warn(`quote purge failed: ${err instanceof Error ? err.message : String(err)}`),
    });
    // Preview counters of past UTC days are dropped hourly (api/previews/README.md).
    const stopPreviewPrune = startPreviewHousekeeping(db, {
      onError: (err) => warn(`preview counter prune failed: ${err instanceof Error ? err.message : String(err)}`),
    });
    const stopBilling = stopHousekeeping;
    stopHousekeeping = () => {
      stopBilling?.();
      stopQuotePurge();
      stopPreviewPrune();
    };
    try {
      // Live network, a local test chain (started here, stopped by close) or off; see api/payments/README.md.
      payments = await startPayments({ db, credits, ...(state.env ? { env: state.env } : {}), ...(explicitBase ? { publicBaseUrl: explicitBase } : {}) });
    } catch (cause) {
      closeSnapshots();
      stopHousekeeping();
      await db.close();
      await closeWarehouse();
      throw new Error(`cannot start payments: ${(cause as Error).message}`, { cause });
    }
    paymentsLine = payments.line;
    setPaymentServices(payments.deps);
    const stateDb = db;
    const deps = payments.deps;
    setHealthChecks({
      database: async () => {
        await stateDb.query("SELECT 1");
        return `${stateDb.kind === "embedded" ? "embedded Postgres" : "DATABASE_URL server"} answers`;
      },
      ...(deps.chain && deps.config.configured
        ? { chain: async () => `chain ${deps.config.chainId} at block ${await deps.chain!.getBlockNumber()}` }
        : {}),
      signing_key: async () => `Ed25519 key ${(await processReceiptKey()).kid}`,
    });
    // Standard x402 exact payments (PAYMENT-SIGNATURE), when a settler key or a facilitator is configured.
    let exact: Awaited<ReturnType<typeof startExactPayments>>;
    try {
      exact = await startExactPayments({ db, credits, payments: payments.deps, ...(state.env ? { env: state.env } : {}), onError: onServerError });
    } catch (cause) {
      closeSnapshots();
      stopHousekeeping();
      await payments.stop();
      await db.close();
      await closeWarehouse();
      throw cause;
    }
    if (exact) {
      paymentsLine += `; x402 exact payments ${exact.exact.describe}`;
      payments.deps.config.exactSettlement = exact.exact.describe;
    }
    premium = setupPremium({ db, credits, payments: payments.deps, ...(exact ? { exact } : {}), onServerError });
    // Watch webhooks: the outbox worker delivers what evaluation queued (api/webhooks/README.md).
    // A lost database fails every poll of the worker: the same line is written once a minute, with its count.
    const deliveryWarn = withoutRepeats(warn);
    deliveryWorker = startDeliveryWorker(db, {
      allowPrivate: config.allowPrivateCallbacks,
      onError: (err) => deliveryWarn(`webhook delivery failed: ${err instanceof Error ? err.message : String(err)}`),
    });
    setWatchServices({ db, credits, allowPrivateCallbacks: config.allowPrivateCallbacks });
  }
  if (!config.premiumBilling) premium = createUnbilledGateway({ onServerError });

  // The warehouse's day files under both folders (the scheduler's own wins per date); re-listed after each
  // manifest change, since the pipelines write the warehouse before the manifest.
  let warehouseReader: Awaited<ReturnType<typeof openWarehouseReader>>;
  try {
    warehouseReader = await openWarehouseReader({ dirs: [store.dir, ...(local ? [local.dir] : [])], memoryLimit: `${config.warehouseMemoryMb}MB`, onWarn: warn });
  } catch (cause) {
    closeSnapshots();
    stopHousekeeping?.();
    await deliveryWorker?.stop();
    setPaymentServices(undefined);
    setWatchServices(undefined);
    await payments?.stop();
    await db?.close();
    await closeWarehouse();
    throw new Error(`cannot open the warehouse reader: ${(cause as Error).message}`, { cause });
  }
  const refreshWarehouse = () => void warehouseReader.refresh().catch((err: unknown) => warn(`warehouse refresh failed: ${(err as Error).message}`));
  store.onReload(refreshWarehouse);
  local?.onReload(refreshWarehouse);
  // Watches are evaluated after every reload (and on the digest tick), once the warehouse re-listed its days.
  const watchEvaluation: WatchEvaluation | undefined = db
    ? startWatchEvaluation({ db, snapshots: served, warehouse: warehouseReader, onWarn: warn })
    : undefined;
  const stopWatches = async () => {
    await watchEvaluation?.stop();
    setWatchServices(undefined);
  };
  // The x402 settlement index reads the chain payments use (api/x402-index/README.md); X402_INDEX=read serves what
  // another instance on the same database indexes.
  const chainConfig = payments?.deps.config;
  const settlementIndexing: SettlementIndexing | undefined =
    db && x402Index?.mode === "on" && chainConfig?.rpcUrl && payments?.mode !== "off"
      ? startSettlementIndexing({
          db,
          client: createPublicClient({ transport: http(chainConfig.rpcUrl, { timeout: 20_000, retryCount: 2 }) }),
          chainId: chainConfig.chainId,
          token: chainConfig.usdcAddress,
          warehouse: warehouseReader,
          config: x402Index,
          onWarn: warn,
        })
      : undefined;
  if (db && chainConfig && (settlementIndexing || x402Index?.mode === "read")) {
    setX402IndexServices({ db, chainId: chainConfig.chainId, token: chainConfig.usdcAddress.toLowerCase() });
  }

  serverActivity.useVerifier(loadVerifier());
  const unwireWeather = weatherSource ? wireWeatherAlertsSource(weatherSource) : () => {};
  const routes = options.routes ?? registryRoutes;
  const maxBodyBytes = largestBodyLimit(routes);
  const built = createApp({
    routes,
    snapshots: served,
    get baseUrl() {
      return baseUrl;
    },
    rateLimitPerMinute: config.rateLimitPerMinute,
    trustProxy: config.trustProxy,
    onServerError,
    paymentThrottle: createPaymentThrottle({ perMinute: config.paymentRateLimitPerMinute, ...(isKnownBearer ? { isKnownBearer } : {}) }),
    onAnswered: ({ userAgent, template, address }) => serverActivity.record(userAgent, template, { address }),
    ...(premium ? { premium } : {}),
    ...(db ? { previews: new PreviewQuota(db) } : {}),
    warehouse: warehouseReader,
    warm: true,
  });
  // /mcp dispatches each tool call into this app (api/mcp/dispatch.ts).
  const clearMcpDispatch = setMcpDispatch((request) => built.app.fetch(request));

  // Node's http server: the static-first fast path answers cached free responses directly; everything
  // else goes through the h3 app.
  const h3Listener = toNodeHandler(built.app);
  // The fast path writes the security headers itself, in its prebuilt header block; a request that declares a
  // body is never a cached answer and goes to the guard (413) and the app.
  const slowPath = (req: IncomingMessage, res: ServerResponse): void => {
    if (!guardRequest(req, res, maxBodyBytes)) void h3Listener(req, res);
  };
  const server = createServer(SERVER_OPTIONS, (req, res) => {
    if (refuseWithoutHost(req, res)) return;
    const served = req.headers["content-length"] === undefined && req.headers["transfer-encoding"] === undefined ? built.serveCached(req, res) : false;
    if (served === true) return;
    if (served === false) {
      slowPath(req, res);
      return;
    }
    served.then(
      (done) => {
        if (!done) slowPath(req, res);
      },
      (err: unknown) => {
        warn(`fast path failed: ${err instanceof Error ? err.message : String(err)}`);
        if (!res.headersSent) slowPath(req, res);
      },
    );
  });
  hardenServer(server);
  /** Everything started above, stopped in order: after close() has stopped the HTTP server, or when it never listened. */
  const release = async (): Promise<void> => {
    clearMcpDispatch();
    built.dispose();
    unwireWeather();
    closeSnapshots();
    await stopWatches();
    await settlementIndexing?.stop();
    setX402IndexServices(undefined);
    await built.idle();
    warehouseReader.close();
    if (db) {
      stopHousekeeping?.();
      await deliveryWorker?.stop();
      setPaymentServices(undefined);
      await payments?.stop();
      setHealthChecks({});
      await db.close();
    }
    await closeWarehouse();
  };
  try {
    await new Promise<void>((ok, fail) => {
      server.once("error", fail);
      server.listen(config.port, config.host, () => {
        server.off("error", fail);
        ok();
      });
    });
  } catch (cause) {
    // The settlement indexer too: left running, its next pass met a closed database and printed its failure.
    await release();
    throw new Error(`cannot listen on ${config.host}:${config.port} (HOST and PORT): ${(cause as Error).message}`, { cause });
  }
  const address = server.address() as AddressInfo | null;
  const port = address?.port ?? config.port;
  const host = config.host === "0.0.0.0" || config.host === "::" ? "localhost" : config.host;
  const url = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
  if (!explicitBase) baseUrl = `http://localhost:${port}`;
  config.publicBaseUrl = baseUrl;

  return {
    url,
    port,
    config,
    store,
    served,
    ...(local ? { localSnapshotsDir: local.dir } : {}),
    payments: paymentsLine,
    ...(db ? { db } : {}),
    async close() {
      await new Promise<void>((ok) => {
        server.close(() => ok());
        server.closeAllConnections();
      });
      await release();
    },
  };
}

/**
 * Builds warehouse.duckdb with the pipelines' builder in a child process (its memory peak never stays in the
 * server's), loaded on first use (a server never asked for it never loads it).
 */
const buildWarehouse: WarehouseDbBuilder = async (job) => {
  const { buildWarehouseDbInChild } = await import("../pipelines/lib/warehouse/build-process.ts");
  await buildWarehouseDbInChild(job);
};

/**
 * The in-process pipeline scheduler (pipelines/runner/scheduler.ts over the feed registry). Loaded lazily so
 * `--no-schedule` never loads the pipelines; after each run the snapshot store sees the new manifest.
 */
async function startScheduler(snapshotsDir: string, baseSnapshotsDir: string, warn: (m: string) => void): Promise<(() => Promise<void>) | null> {
  try {
    const [{ startSchedule }, { feeds }] = await Promise.all([
      import("../pipelines/runner/scheduler.ts"),
      import("../pipelines/feeds/index.ts"),
    ]);
    const cronOf = (feed: string): string | undefined => (feeds as Record<string, { cron?: string }>)[feed]?.cron;
    return startSchedule({
      feeds,
      snapshotsDir: resolve(snapshotsDir),
      // Until a feed's first own success, what a failed source keeps comes from the snapshots served (bundled).
      baseSnapshotsDir: resolve(baseSnapshotsDir),
      onResult: (result) => {
        if (result.status === "failed") warn(failedRunLine(result.feed, result.error ?? "no cause reported", cronOf(result.feed)));
      },
      onError: (feed, error) => warn(failedRunLine(feed, error instanceof Error ? error.message : String(error), cronOf(feed))),
      onSkip: (feed) => warn(`pipeline ${feed} still running, tick skipped`),
    });
  } catch (err) {
    warn(`scheduler not started: ${(err as Error).message}`);
    return null;
  }
}

/** The first line of a text, at most 1,000 characters, for the server's log. */
function logLine(text: string): string {
  return text.split("\n")[0]!.slice(0, 1000);
}

/** An error as one line, its name first, for the server's log. */
function crashLine(error: unknown): string {
  return logLine(error instanceof Error ? `${error.name}: ${error.message}` : String(error));
}

/** CLI entry: `node --import tsx api/server.ts [--no-schedule]`, and what `npm start` runs after api/start.ts's check. */
export async function main(argv = process.argv.slice(2)): Promise<void> {
  const warn = (m: string) => process.stderr.write(`agentfeed: ${m}\n`);
  // Signals are handled from the first moment: one that arrives while the server is still starting stops it
  // (and the embedded Postgres it started) as soon as the start settles, instead of leaving the database behind.
  let stopRequested: string | undefined;
  let stop: ((signal: string) => void) | undefined;
  /** The first real signal received (not a crash): once asked to stop, failures on the way out are expected. */
  let signalled: string | undefined;
  const onSignal = (signal: string) => {
    if (signal !== "unexpected error") signalled ??= signal;
    if (stop) stop(signal);
    else stopRequested ??= signal;
  };
  // SIGHUP is the terminal closing: by default it ends Node at once, and the embedded Postgres (which reads SIGHUP
  // as "reload the configuration") would be left running without its owner.
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(signal, () => onSignal(signal));
  // An error nothing caught (a thrown exception, or a rejection nobody handles) would end Node at once and leave
  // the embedded Postgres and the test chain running without their owner: it stops the server as a signal does,
  // after one line naming the error, and the process exits with 1.
  let exitCode = 0;
  process.on("uncaughtException", (error) => {
    if (signalled !== undefined && exitCode === 0) {
      // Ctrl-C reaches the embedded Postgres too (one process group), and the stop closes connections: a client
      // failing on the way out is part of the stop the operator asked for, not a crash to report with a stack.
      warn(`while stopping after ${signalled}: ${crashLine(error)}`);
      return;
    }
    if (exitCode === 0) warn(`unexpected error, shutting down: ${crashLine(error)}`);
    else warn(`another unexpected error while shutting down: ${crashLine(error)}`);
    if (error instanceof Error && error.stack) process.stderr.write(`${error.stack.slice(0, 4000)}\n`);
    exitCode = 1;
    // A crash during the start is acted on once the start settles; this bounds the wait if it never does (once
    // started, the shutdown has its own bound).
    if (!stop) setTimeout(() => process.exit(1), 10_000).unref();
    onSignal("unexpected error");
  });

  // The scheduler writes into the data folder, never into the tracked snapshots/ folder.
  const dataDir = dataDirOf(process.env.DATA_DIR);
  const localSnapshots = join(dataDir, "snapshots");
  let running: RunningServer;
  try {
    await makeDataDir(dataDir);
    running = await startServer({
      onWarn: warn,
      warehouseDbPath: join(dataDir, "warehouse.duckdb"),
      warehouseEagerBuild: true,
      ...(argv.includes("--no-schedule") ? {} : { localSnapshotsDir: localSnapshots }),
    });
  } catch (err) {
    // One line naming the cause, the path and what to do; never a stack trace alone.
    const message = logLine((err as Error).message);
    if (signalled !== undefined) {
      // Stopped while starting: Ctrl-C also reached the database the start was waiting for.
      process.stderr.write(`agentfeed: ${signalled} received while starting; stopped (${message})\n`);
      process.exit(0);
    }
    process.stderr.write(`agentfeed: cannot start: ${message}\n`);
    process.exit(1);
  }
  const scheduler = stopRequested || argv.includes("--no-schedule") ? null : await startScheduler(localSnapshots, running.config.snapshotsDir, warn);
  let stopping = false;
  stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    if (exitCode === 0) warn(`${signal} received, shutting down`);
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    void (async () => {
      try {
        await scheduler?.();
      } catch (err) {
        warn(`the scheduler did not stop cleanly: ${crashLine(err)}`);
      }
      try {
        // The server owns its shutdown: it stops the embedded Postgres itself.
        await running.close();
      } catch (err) {
        warn(`the server did not stop cleanly: ${crashLine(err)}`);
        exitCode = 1;
      }
      process.exit(exitCode);
    })();
  };
  if (stopRequested) {
    stop(stopRequested);
    return;
  }
  const snapshotsDir = resolve(running.config.snapshotsDir);
  const lines = startBanner({
    url: running.url,
    publicBaseUrl: running.config.publicBaseUrl,
    snapshotsDir,
    bundled: snapshotsDir === BUNDLED_SNAPSHOTS,
    ...(running.localSnapshotsDir ? { localSnapshotsDir: running.localSnapshotsDir } : {}),
    snapshots: servedManifest(running.served),
    state: running.db?.where,
    payments: running.payments,
    scheduler: scheduler !== null,
    now: new Date(),
  });
  process.stdout.write(`${lines.join("\n")}\n`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await main();
}
