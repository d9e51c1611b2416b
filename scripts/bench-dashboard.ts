/**
 * `npm run bench:dashboard`: the dashboard's first contentful paint and bytes transferred, in the Debian Chromium
 * driven by playwright-core, against a spawned server on the bundled snapshots. BENCH_ROUNDS loads (default 5),
 * each in a fresh browser context (empty cache); prints each FCP, the median and the transferred bytes.
 * Targets: FCP ≤ 1 s, ≤ 150 KB transferred.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { chromium } from "playwright-core";
import { CHROMIUM_ARGS, chromiumPath } from "../api/dashboard/chromium.ts";
import { spawnApi } from "../api/testing/spawn-api.ts";

type Page = { performance: { getEntriesByType(type: string): { name: string; startTime: number; transferSize?: number }[] }; agentfeedDashboard?: { loaded?: boolean } };
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
if (!Number.isInteger(rounds) || rounds < 1 || rounds > 100) throw new Error(`BENCH_ROUNDS must be an integer 1..100, got ${process.env.BENCH_ROUNDS}`);
const executable = chromiumPath();
if (!executable) {
  process.stderr.write("bench:dashboard needs Chromium: apt-get install chromium (or set CHROMIUM_PATH)\n");
  process.exit(2);
}

const data = await mkdtemp(join(tmpdir(), "agentfeed-bench-dashboard-"));
const api = await spawnApi({ SNAPSHOTS_DIR: resolve(import.meta.dirname, "../snapshots"), DATA_DIR: data, DATABASE_URL: "", PAYMENTS_TEST_CHAIN: "off", RATE_LIMIT_PER_MINUTE: "0" });
const browser = await chromium.launch({ executablePath: executable, args: CHROMIUM_ARGS });
try {
  process.stdout.write(`bench:dashboard — ${api.base}/ in ${executable}, ${rounds} loads, each with an empty cache\n`);
  const fcps: number[] = [];
  let bytes = 0;
  for (let i = 0; i < rounds; i++) {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${api.base}/`, { waitUntil: "load" });
    await page.waitForFunction(() => (globalThis as unknown as Page).agentfeedDashboard?.loaded === true, null, { timeout: 20_000 });
    const { fcp, transferred } = await page.evaluate(() => {
      const perf = (globalThis as unknown as Page).performance;
      const paint = perf.getEntriesByType("paint").find((e) => e.name === "first-contentful-paint");
      const entries = [...perf.getEntriesByType("navigation"), ...perf.getEntriesByType("resource")];
      return { fcp: paint?.startTime ?? NaN, transferred: entries.reduce((n, e) => n + (e.transferSize ?? 0), 0) };
    });
    fcps.push(fcp);
    bytes = transferred;
    process.stdout.write(`  load ${i + 1}: first contentful paint ${fcp.toFixed(0)} ms, ${(transferred / 1024).toFixed(1)} KB transferred (page, assets and API answers)\n`);
    await context.close();
  }
  fcps.sort((a, b) => a - b);
  process.stdout.write(`median first contentful paint ${fcps[Math.floor(fcps.length / 2)]!.toFixed(0)} ms (target ≤ 1000 ms); ${(bytes / 1024).toFixed(1)} KB transferred (target ≤ 150 KB)\n`);
} finally {
  await browser.close();
  await api.stop();
  await rm(data, { recursive: true, force: true });
}
