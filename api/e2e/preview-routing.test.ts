/**
 * The free routing preview over real HTTP: two API processes on the bundled snapshots share one Postgres, so a
 * client's five daily calls are counted across both; the sixth is 429 with Retry-After to the next UTC
 * midnight and where to buy credits. Bad input is refused without using the quota, and the preview shows the
 * top-1 model of the premium answer and nothing the premium endpoint reserves.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCredits } from "../billing/credits.ts";
import { openTempDatabase, type TempDatabase } from "../state/testing/temp-database.ts";
import type { Database } from "../state/types.ts";
import { BUNDLED_SNAPSHOTS } from "../testing/bundled-server.ts";
import { contractFetch as fetch } from "../testing/openapi-contract.ts";
import { spawnApi, type SpawnedApi } from "../testing/spawn-api.ts";

type Json = Record<string, any>;

let temp: TempDatabase | undefined;
const apis: SpawnedApi[] = [];
let token = "";

beforeAll(async () => {
  temp = await openTempDatabase();
  const env = { SNAPSHOTS_DIR: BUNDLED_SNAPSHOTS, DATABASE_URL: temp.url, RATE_LIMIT_PER_MINUTE: "120", PAYMENTS_TEST_CHAIN: "off" };
  apis.push(...(await Promise.all([spawnApi(env), spawnApi(env)])));
  const credits = createCredits(temp.db as Database);
  const minted = await credits.mintToken(temp.db, { kind: "paid" });
  await credits.grant(temp.db, minted.id, 5, { reason: "purchase", ref: "test:preview" });
  token = minted.token;
}, 180_000);

afterAll(async () => {
  await Promise.all(apis.map((api) => api.stop()));
  await temp?.close();
});

const get = async (api: SpawnedApi, path: string, headers: Record<string, string> = {}) => {
  const res = await fetch(api.base + path, { headers });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Json };
};

describe("GET /api/preview/routing", () => {
  it("refuses a bad task with a 400 that uses none of the quota", async () => {
    const bad = await get(apis[0]!, "/api/preview/routing?task=poetry");
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ ok: false, error: "invalid_query" });
    const rows = await temp!.db.query("SELECT count(*)::int AS n FROM preview_usage");
    expect(rows.rows[0]).toEqual({ n: 0 });
  });

  it("refuses a parameter it does not declare (a typo) with a 400 naming it, using none of the quota", async () => {
    const typo = await get(apis[0]!, "/api/preview/routing?tsk=code&_=1");
    expect(typo.status).toBe(400);
    expect(typo.body).toMatchObject({ ok: false, error: "invalid_query", issues: [{ path: "tsk" }, { path: "_" }] });
    expect(typo.body.message).toMatch(/^\/api\/preview\/routing takes no parameters tsk, _; it takes task.*\. Nothing was charged\.$/);
    const rows = await temp!.db.query("SELECT count(*)::int AS n FROM preview_usage");
    expect(rows.rows[0]).toEqual({ n: 0 });
  });

  it("answers the premium endpoint's top-1 model, five times a day across two processes, then 429", async () => {
    const premium = await get(apis[0]!, "/api/premium/routing?task=code&top_n=1", { authorization: `Bearer ${token}` });
    expect(premium.status).toBe(200);
    const top = premium.body.recommendations[0] as Json;

    // A HEAD gets the GET's status and headers, no data, and uses none of the quota.
    const probe = await fetch(apis[1]!.base + "/api/preview/routing?task=code", { method: "HEAD" });
    expect(probe.status).toBe(200);
    expect(probe.headers.get("ratelimit-remaining")).toBe("5");
    expect(await probe.text()).toBe("");
    expect((await temp!.db.query("SELECT coalesce(sum(count), 0)::int AS n FROM preview_usage")).rows[0]).toEqual({ n: 0 });

    const remaining: number[] = [];
    for (let i = 0; i < 5; i++) {
      const { status, headers, body } = await get(apis[i % 2]!, "/api/preview/routing?task=code");
      expect(status).toBe(200);
      expect(body).toEqual({
        ok: true,
        preview: true,
        task: "code",
        recommendation: { model: top.model.id, provider: top.model.provider },
        rate_limit: { limit: 5, remaining: 4 - i, scope: "ip_per_utc_day" },
        upgrade: {
          premium_endpoint: "/api/premium/routing",
          payment_info: "/api/payment/info",
          buy_credits: "/api/payment/buy-credits",
          preview_shows: "top-1 model only",
        },
      });
      // Both limits the preview is under; Limit and Remaining of the daily quota, which has fewer calls left.
      expect(headers.get("ratelimit-limit")).toBe("5");
      expect(headers.get("ratelimit-remaining")).toBe(String(4 - i));
      expect(headers.get("ratelimit-policy")).toBe("5;w=86400, 120;w=60");
      expect(headers.get("cache-control")).toBe("no-store");
      remaining.push(body.rate_limit.remaining);
    }
    expect(remaining).toEqual([4, 3, 2, 1, 0]);

    const over = await get(apis[1]!, "/api/preview/routing?task=general");
    // Another task is the same preview: the quota is per preview, not per input.
    expect(over.status).toBe(429);
    expect(over.body).toMatchObject({ ok: false, error: "preview_limit_reached", rate_limit: { limit: 5, remaining: 0 } });
    // The refusal's headers describe the exhausted daily quota, and name the minute's policy beside it.
    expect([over.headers.get("ratelimit-limit"), over.headers.get("ratelimit-remaining"), over.headers.get("ratelimit-policy")]).toEqual(["5", "0", "5;w=86400, 120;w=60"]);
    expect(over.body.message).toContain("/api/premium/routing");
    expect(over.body.message).toContain("/api/payment/buy-credits");
    const now = Date.now();
    const midnight = Date.UTC(new Date(now).getUTCFullYear(), new Date(now).getUTCMonth(), new Date(now).getUTCDate() + 1);
    const retryAfter = Number(over.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(Math.abs(retryAfter - (midnight - now) / 1000)).toBeLessThan(30);
    expect(new Date(over.body.resets_at).getTime()).toBe(midnight);
    const overHead = await fetch(apis[0]!.base + "/api/preview/routing?task=code", { method: "HEAD" });
    expect(overHead.status).toBe(429);
    expect(overHead.headers.get("retry-after")).toBe(over.headers.get("retry-after"));
  });
});
