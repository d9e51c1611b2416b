/**
 * A server started with no payment configuration runs its own local test chain: the real API process (embedded
 * Postgres, fresh snapshots from a replay run) starts anvil (chain 31337) with Test USDC, says TEST CHAIN in its
 * start line, /api/payment/info, every 402 and /llms.txt, serves `npm run try:premium` (trial → premium call →
 * receipt verification, then a test-USDC purchase) over HTTP, and leaves no anvil behind when it stops. With
 * PUBLIC_BASE_URL and no opt-in, payments are off and no anvil runs.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { feeds } from "../../pipelines/feeds/index.ts";
import { runFeeds } from "../../pipelines/runner/run-feeds.ts";
import { tryPremium } from "../payments/client/try-premium.ts";
import { TEST_NETWORK_LABEL } from "../payments/network.ts";
import { openTempDatabase, type TempDatabase } from "../state/testing/temp-database.ts";
import { spawnApi, type SpawnedApi } from "../testing/spawn-api.ts";
// Every answer is checked against the OpenAPI document (operation, status, headers, body).
import { contractFetch as fetch } from "../testing/openapi-contract.ts";

const ROOT = resolve(import.meta.dirname, "../..");
/** No payment configuration at all: what a newcomer's `npm start` sees. */
const UNCONFIGURED = { BASE_RPC_URL: "", PUBLISHER_WALLET: "", USDC_ADDRESS: "", CHAIN_ID: "", PUBLIC_BASE_URL: "", PAYMENTS_TEST_CHAIN: "", MIN_CONFIRMATIONS: "" };

/** Pids of the anvil processes whose parent is `pid` (from /proc). */
function anvilChildren(pid: number): number[] {
  const found: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      // pid (comm) state ppid …; comm may hold spaces, so split after the closing parenthesis.
      const comm = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (ppid === pid && comm === "anvil") found.push(Number(entry));
    } catch {
      // the process ended while we read
    }
  }
  return found;
}

/** True while `pid` is a live (not zombie) process. */
function alive(pid: number): boolean {
  if (!existsSync(`/proc/${pid}/stat`)) return false;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

/** Wait (up to `ms`) until `check` holds. */
async function until(check: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
  return true;
}

/** The `payments:` line of the start banner, without its label. */
async function paymentsLine(api: SpawnedApi): Promise<string> {
  await until(() => api.stdout().includes("payments:"), 5000);
  const line = api.stdout().split("\n").find((l) => l.trimStart().startsWith("payments:"));
  return line ? line.trimStart().slice("payments:".length).trim() : `(no payments line in: ${api.stdout()})`;
}

const temps: string[] = [];
const tempDir = async (prefix: string) => {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  temps.push(dir);
  return dir;
};
const servers: SpawnedApi[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  await Promise.all(temps.map((d) => rm(d, { recursive: true, force: true })));
});

describe("npm start without payment configuration", () => {
  let api: SpawnedApi;
  let anvilPid = 0;
  let dataDir = "";

  beforeAll(async () => {
    const snapshotsDir = await tempDir("agentfeed-test-chain-snapshots-");
    // Fresh snapshots of what /api/premium/routing reads, so the premium call is charged (not served free as stale).
    await runFeeds({
      feeds: { news: feeds.news, status: feeds.status, pricing: feeds.pricing, benchmarks: feeds.benchmarks },
      snapshotsDir,
      replayDir: join(ROOT, "pipelines/fixtures"),
    });
    dataDir = await tempDir("agentfeed-test-chain-state-");
    api = await spawnApi({ ...UNCONFIGURED, SNAPSHOTS_DIR: snapshotsDir, DATA_DIR: dataDir, DATABASE_URL: "", RATE_LIMIT_PER_MINUTE: "0" });
    servers.push(api);
  }, 120_000);

  it("starts one anvil of its own and says TEST CHAIN, chain 31337, in its start line", async () => {
    const line = await paymentsLine(api);
    expect(line).toMatch(/^TEST CHAIN anvil 127\.0\.0\.1:\d+ chain 31337 — TEST MONEY, not Base: Test USDC \(tUSDC\) 0x[0-9a-fA-F]{40}, publisher 0x/);
    const children = anvilChildren(api.child.pid!);
    expect(children).toHaveLength(1);
    anvilPid = children[0]!;
  });

  it("names the test chain in /api/payment/info, /llms.txt and a 402", async () => {
    const info = (await (await fetch(`${api.base}/api/payment/info`)).json()) as Record<string, any>;
    expect(info).toMatchObject({ ok: true, test_mode: true, wallet: { network: TEST_NETWORK_LABEL, chain_id: 31337 }, test_chain: { chain_id: 31337 } });
    expect(info.test_chain.warning).toMatch(/^TEST CHAIN: .* TEST MONEY/);
    expect(info.test_chain.funded_accounts).toHaveLength(9);
    expect(info.flow.with_quote.join(" ")).toContain("Test USDC (tUSDC, TEST MONEY) on the local test chain (chain id 31337, not Base)");

    const llms = await (await fetch(`${api.base}/llms.txt`)).text();
    expect(llms).toContain("TEST CHAIN: this instance takes payments on a local anvil chain (chain id 31337)");
    expect(llms.split("\n").find((l) => l.startsWith("> "))).toContain("paid in credits with Test USDC on this instance's local test chain (test money, not Base)");
    expect(llms).not.toContain("USDC on Base");
    expect(llms).toContain(`token contract ${info.wallet.contract}): ${info.wallet.address}`);

    const res = await fetch(`${api.base}/api/premium/routing?task=code`);
    expect(res.status).toBe(402);
    const body = (await res.json()) as Record<string, any>;
    expect(body).toMatchObject({ ok: false, error: "payment_required", test_mode: true, accepts: [{ network: "eip155:31337", asset: info.wallet.contract, payTo: info.wallet.address }] });
    expect(body.message).toContain("TEST CHAIN");
    const header = JSON.parse(Buffer.from(res.headers.get("payment-required") ?? "", "base64").toString("utf8")) as Record<string, any>;
    expect(header.error).toMatch(/^TEST CHAIN: /);
    expect(header.accepts[0]).toMatchObject({ network: "eip155:31337", extra: { name: "Test USDC" } });
  });

  it("serves try:premium: trial → premium call → receipt verification, then a test-USDC purchase", { timeout: 60_000 }, async () => {
    const lines: string[] = [];
    const r = await tryPremium({ baseUrl: api.base, buy: true, log: (l) => lines.push(l) });
    expect(r).toMatchObject({ testMode: true, chainId: 31337, network: TEST_NETWORK_LABEL });
    expect(r.trial.credits).toBe(25);
    expect(r.premium).toMatchObject({ status: 200, creditsCharged: 1, creditsRemaining: 24 });
    expect(r.verify.valid).toBe(true);
    // 1.00 USD of test USDC → 50 credits, plus the first-payment bonus; one credit for the call.
    expect(r.buy).toMatchObject({ credits: 100, balance: 100, premiumStatus: 200, creditsCharged: 1 });
    // Every step printed with its command.
    expect(lines.filter((l) => l.startsWith("  $ curl ")).length).toBeGreaterThanOrEqual(6);
    expect(lines.some((l) => l.startsWith("  $ cast send "))).toBe(true);
    // The verification reads the saved answer: calling the route again would be a second, charged call.
    expect(lines).toContain(`  $ jq '{receipt: .receipt, response: .}' paid.json | curl -s -X POST ${api.base}/api/receipt/verify -H 'content-type: application/json' -d @-`);
  });

  it("stops its anvil when it stops (SIGTERM)", { timeout: 20_000 }, async () => {
    expect(anvilPid).toBeGreaterThan(0);
    const rpcUrl = /anvil (127\.0\.0\.1:\d+)/.exec(await paymentsLine(api))![1];
    expect(await api.stop()).toBe(0);
    expect(alive(anvilPid)).toBe(false);
    await expect(fetch(`http://${rpcUrl}`, { method: "POST", signal: AbortSignal.timeout(2000) })).rejects.toThrow();
  });

  it("refuses to go live on the same state, whose tokens hold test credits", { timeout: 60_000 }, async () => {
    const live = { BASE_RPC_URL: "http://127.0.0.1:9", PUBLISHER_WALLET: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8" };
    await expect(spawnApi({ ...UNCONFIGURED, ...live, DATA_DIR: dataDir, DATABASE_URL: "" }, { timeoutMs: 45_000 })).rejects.toThrow(
      /api exited with 1: .*cannot start: .*TEST CHAIN \(chain 31337\).*fresh DATA_DIR or DATABASE_URL/s,
    );
  });
});

describe("npm start with PUBLIC_BASE_URL and no payment configuration", () => {
  it("runs no test chain unless PAYMENTS_TEST_CHAIN=on: payments are off and say why", { timeout: 90_000 }, async () => {
    const api = await spawnApi({ ...UNCONFIGURED, PUBLIC_BASE_URL: "https://feed.example", DATA_DIR: await tempDir("agentfeed-test-chain-public-"), DATABASE_URL: "" });
    servers.push(api);
    expect(await paymentsLine(api)).toMatch(/^off \(PUBLIC_BASE_URL is set .* PAYMENTS_TEST_CHAIN=on; payment routes answer 503 payments_not_configured\)$/);
    expect(anvilChildren(api.child.pid!)).toEqual([]);
    const res = await fetch(`${api.base}/api/payment/info`);
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ ok: false, error: "payments_not_configured" });
    const challenge = (await (await fetch(`${api.base}/api/premium/routing?task=code`)).json()) as Record<string, any>;
    expect(challenge).toMatchObject({ error: "payment_required", accepts: [] });
    expect(challenge.test_mode).toBeUndefined();
  });

  it("runs the test chain with PAYMENTS_TEST_CHAIN=on, and a killed server (SIGKILL) leaves no anvil behind", { timeout: 90_000 }, async () => {
    // A database this test owns, so the killed server leaves no embedded Postgres of its own either.
    let temp: TempDatabase | undefined = await openTempDatabase();
    try {
      const api = await spawnApi({ ...UNCONFIGURED, PUBLIC_BASE_URL: "https://feed.example", PAYMENTS_TEST_CHAIN: "on", DATABASE_URL: temp.url });
      servers.push(api);
      expect(await paymentsLine(api)).toMatch(/^TEST CHAIN anvil .* chain 31337 .*\(PAYMENTS_TEST_CHAIN=on\); x402 exact payments settled by this service \(settler 0x[0-9a-fA-F]{40}\)$/);
      const info = (await (await fetch(`${api.base}/api/payment/info`)).json()) as Record<string, any>;
      expect(info).toMatchObject({ test_mode: true, wallet: { chain_id: 31337 } });
      const [anvilPid] = anvilChildren(api.child.pid!);
      expect(anvilPid).toBeGreaterThan(0);
      const exited = new Promise((ok) => api.child.once("exit", ok));
      api.child.kill("SIGKILL");
      await exited;
      const gone = await until(() => !alive(anvilPid!), 5000);
      if (!gone) process.kill(anvilPid!, "SIGKILL");
      expect(gone, "anvil outlived its killed server (no parent-death signal: is util-linux's setpriv missing?)").toBe(true);
    } finally {
      await temp.close();
      temp = undefined;
    }
  });
});
