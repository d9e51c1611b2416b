/**
 * The dashboard in a real headless Chromium (Debian's package, driven by playwright-core; no browser download)
 * against a spawned server on replayed snapshots whose `news` feed is made stale: the page loads with no console
 * error, both charts draw the warehouse points /api/dashboard.json serves, the stale feed carries its marker and
 * a fresh one does not, the documentation links are there, the first Tab reaches the skip link, and the page
 * with every asset stays under 150 KB transferred.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { replaySnapshots } from "../../scripts/lib/replay-snapshots.ts";
import { CHROMIUM_ARGS, chromiumPath } from "../dashboard/chromium.ts";
import { spawnApi, type SpawnedApi } from "../testing/spawn-api.ts";

/** What the browser-side functions read of the page's globals. */
type Browserish = {
  agentfeedDashboard?: { loaded?: boolean; charts: Record<string, { points: number }> };
  document: { activeElement: { className: string } | null };
  performance: { getEntriesByType(this: unknown, type: string): { transferSize: number }[] };
};

const executable = chromiumPath();
if (!executable) process.stderr.write("dashboard browser test skipped: no Chromium found (apt-get install chromium, or set CHROMIUM_PATH)\n");

describe.skipIf(!executable)("the dashboard at / in headless Chromium", () => {
  let api: SpawnedApi | undefined;
  let browser: Browser | undefined;
  const dirs: string[] = [];

  beforeAll(async () => {
    const snapshots = await mkdtemp(join(tmpdir(), "agentfeed-dashboard-e2e-"));
    const data = await mkdtemp(join(tmpdir(), "agentfeed-dashboard-e2e-state-"));
    dirs.push(snapshots, data);
    await replaySnapshots(snapshots, ["status", "pricing", "gpu-pricing", "news"]);
    // The news feed last succeeded three days ago: far beyond its SLA.
    const manifestPath = join(snapshots, "manifest.json");
    const manifest = JSON.parse(await readFile(manifestPath, "utf8")) as { types: Record<string, { lastSuccess: string | null }> };
    manifest.types.news!.lastSuccess = new Date(Date.now() - 3 * 86_400_000).toISOString();
    await writeFile(manifestPath, JSON.stringify(manifest, null, 2));
    api = await spawnApi({ SNAPSHOTS_DIR: snapshots, DATA_DIR: data, DATABASE_URL: "", PAYMENTS_TEST_CHAIN: "off", RATE_LIMIT_PER_MINUTE: "0" });
    browser = await chromium.launch({ executablePath: executable!, args: CHROMIUM_ARGS });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await api?.stop();
    await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
  });

  it("loads without a console error, draws both charts from live data, marks the stale feed, and stays small", { timeout: 60_000 }, async () => {
    const page = await browser!.newPage();
    const errors: string[] = [];
    page.on("console", (m) => {
      if (m.type() === "error") errors.push(m.text());
    });
    page.on("pageerror", (e) => errors.push(String(e)));
    await page.goto(`${api!.base}/`);
    // Browser-side functions reach the page through globalThis: this file is type-checked for Node, without the
    // DOM library (and the page's CSP refuses strings evaluated as code).
    await page.waitForFunction(() => (globalThis as unknown as Browserish).agentfeedDashboard?.loaded === true, null, { timeout: 20_000 });

    const served = (await (await fetch(`${api!.base}/api/dashboard.json`)).json()) as { model_prices: { series: { values: (number | null)[] }[] }; gpu_prices: { series: { values: (number | null)[] }[] } };
    const points = (c: { series: { values: (number | null)[] }[] }) => c.series.reduce((n, s) => n + s.values.filter((v) => v !== null).length, 0);
    expect(points(served.model_prices)).toBeGreaterThan(0);
    expect(points(served.gpu_prices)).toBeGreaterThan(0);
    const drawn = (await page.evaluate(() => (globalThis as unknown as Browserish).agentfeedDashboard!.charts)) as Record<string, { points: number }>;
    expect(drawn["model-chart"]!.points).toBe(points(served.model_prices));
    expect(drawn["gpu-chart"]!.points).toBe(points(served.gpu_prices));
    expect(await page.locator("#model-chart canvas").count()).toBe(1);
    expect(await page.locator("#gpu-chart canvas").count()).toBe(1);

    await expect.poll(() => page.locator('#freshness tr[data-feed="news"] .badge.stale').count(), { timeout: 10_000 }).toBe(1);
    expect(await page.locator('#freshness tr[data-feed="status"]').getAttribute("data-stale")).toBe("false");
    expect(await page.locator('#freshness tr[data-feed="status"] .badge.fresh').count()).toBe(1);
    expect(await page.locator("#status-board tbody tr").count()).toBeGreaterThan(0);
    expect(await page.locator("#news li").count()).toBeGreaterThan(0);

    for (const href of ["/docs", "/llms.txt", "/openapi.json"]) expect(await page.locator(`nav a[href="${href}"]`).count()).toBe(1);
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => (globalThis as unknown as Browserish).document.activeElement?.className)).toBe("skip");

    const transferred = await page.evaluate(() => {
      const entries = (globalThis as unknown as Browserish).performance.getEntriesByType;
      return [...entries.call(performance, "navigation"), ...entries.call(performance, "resource")].reduce((n, e) => n + e.transferSize, 0);
    });
    expect(transferred).toBeGreaterThan(0);
    expect(transferred).toBeLessThanOrEqual(150 * 1024);
    expect(errors).toEqual([]);
    await page.close();
  });
});
