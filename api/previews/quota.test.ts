import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toErrorParts } from "../http/errors.ts";
import { ApiError } from "../registry/types.ts";
import { openDatabase } from "../state/database.ts";
import { openTempDatabase, type TempDatabase } from "../state/testing/temp-database.ts";
import type { Database } from "../state/types.ts";
import { PREVIEWS, type PreviewSpec } from "./catalog.ts";
import { prunePreviewUsage } from "./housekeeping.ts";
import { PreviewQuota, nextUtcMidnight, secondsUntilUtcMidnight } from "./quota.ts";
import { previewBody, previewHeaders } from "./response.ts";

let temp: TempDatabase;
/** A second pool on the same server: another server process, as far as the counts can tell. */
let other: Database;
beforeAll(async () => {
  temp = await openTempDatabase();
  other = await openDatabase({ databaseUrl: temp.url, onWarn: () => undefined });
}, 60_000);
afterAll(async () => {
  await other?.close();
  await temp?.close();
});

const ROUTING = PREVIEWS["/api/preview/routing"];
const AT = new Date("2026-11-23T18:30:00.250Z");
const clock = (at: Date) => () => at;
/** A preview of its own per test, so counts never leak between tests. */
const fresh = (name: string, limit = 5): PreviewSpec => ({ route: `/api/preview/test-${name}`, limit, premiumEndpoint: "/api/premium/test", shows: "test" });

async function refusal(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe("PreviewQuota", () => {
  it("secondsUntilUtcMidnight() counts whole seconds to the next UTC midnight, at least 1", () => {
    expect(secondsUntilUtcMidnight(AT)).toBe(19_800); // 5 h 29 min 59.75 s, rounded up
    expect(secondsUntilUtcMidnight(new Date("2026-11-23T00:00:00Z"))).toBe(86_400);
    expect(secondsUntilUtcMidnight(new Date("2026-11-23T23:59:59.999Z"))).toBe(1);
    expect(nextUtcMidnight(new Date("2026-12-31T12:00:00Z")).toISOString()).toBe("2027-01-01T00:00:00.000Z");
  });

  it("consume() counts down, and the 6th call of a 5-limit is a 429 with Retry-After to midnight and where to buy", async () => {
    const quota = new PreviewQuota(temp.db, { now: clock(AT) });
    const preview = { ...ROUTING, route: "/api/preview/routing" };
    const remaining: number[] = [];
    for (let i = 0; i < 5; i++) remaining.push((await quota.consume(preview, "203.0.113.7")).remaining);
    expect(remaining).toEqual([4, 3, 2, 1, 0]);
    const error = await refusal(quota.consume(preview, "203.0.113.7"));
    expect(error.status).toBe(429);
    expect(error.code).toBe("preview_limit_reached");
    expect(error.headers).toMatchObject({ "Retry-After": "19800", "RateLimit-Limit": "5", "RateLimit-Remaining": "0", "RateLimit-Reset": "19800", "RateLimit-Policy": "5;w=86400" });
    const { status, body, headers } = toErrorParts(error);
    expect(status).toBe(429);
    expect(headers?.["Retry-After"]).toBe("19800");
    expect(body).toMatchObject({
      ok: false,
      error: "preview_limit_reached",
      rate_limit: { limit: 5, remaining: 0, scope: "ip_per_utc_day" },
      resets_at: "2026-11-24T00:00:00.000Z",
      retry_after_seconds: 19800,
      upgrade: { premium_endpoint: "/api/premium/routing", payment_info: "/api/payment/info", buy_credits: "/api/payment/buy-credits" },
    });
    expect(body.message).toContain("/api/payment/info");
    expect(body.message).toContain("/api/premium/routing");
    // A refused call writes nothing: the stored count stays at the limit.
    const { rows } = await temp.db.query<{ count: number }>(`SELECT count FROM preview_usage WHERE route = $1`, [preview.route]);
    expect(rows).toEqual([{ count: 5 }]);
  });

  it("consume() counts each client and each preview apart, and stores a keyed hash, never the address", async () => {
    const quota = new PreviewQuota(temp.db, { now: clock(AT) });
    const a = fresh("apart", 1);
    const b = fresh("apart-b", 1);
    await quota.consume(a, "198.51.100.1");
    await quota.consume(a, "198.51.100.2");
    await quota.consume(b, "198.51.100.1");
    expect((await refusal(quota.consume(a, "198.51.100.1"))).status).toBe(429);
    const { rows } = await temp.db.query<{ ip_hash: string }>(`SELECT ip_hash FROM preview_usage WHERE route LIKE '/api/preview/test-apart%'`);
    expect(rows).toHaveLength(3);
    for (const r of rows) {
      expect(r.ip_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(r.ip_hash).not.toContain("198.51");
    }
    const dump = JSON.stringify((await temp.db.query(`SELECT * FROM preview_usage`)).rows);
    expect(dump).not.toContain("198.51.100");
  });

  it("consume() shares the count between two processes (two pools) and their hash key", async () => {
    const preview = fresh("shared");
    const first = new PreviewQuota(temp.db, { now: clock(AT) });
    const second = new PreviewQuota(other, { now: clock(AT) });
    expect((await first.consume(preview, "192.0.2.10")).used).toBe(1);
    expect((await second.consume(preview, "192.0.2.10")).used).toBe(2);
    expect((await first.consume(preview, "192.0.2.10")).used).toBe(3);
    expect((await second.consume(preview, "192.0.2.10")).remaining).toBe(1);
    expect((await first.consume(preview, "192.0.2.10")).remaining).toBe(0);
    expect((await refusal(second.consume(preview, "192.0.2.10"))).status).toBe(429);
  });

  it("consume() admits exactly the limit when two processes race", async () => {
    const preview = fresh("race", 5);
    const quotas = [new PreviewQuota(temp.db, { now: clock(AT) }), new PreviewQuota(other, { now: clock(AT) })];
    const outcomes = await Promise.allSettled(Array.from({ length: 16 }, (_, i) => quotas[i % 2]!.consume(preview, "192.0.2.99")));
    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(5);
    const refused = outcomes.filter((o): o is PromiseRejectedResult => o.status === "rejected");
    expect(refused).toHaveLength(11);
    for (const r of refused) expect((r.reason as ApiError).status).toBe(429);
    const used = outcomes.flatMap((o) => (o.status === "fulfilled" ? [o.value.used] : [])).sort();
    expect(used).toEqual([1, 2, 3, 4, 5]);
  });

  it("consume() starts again on the next UTC day", async () => {
    const preview = fresh("nextday", 2);
    let now = new Date("2026-11-23T23:59:59.500Z");
    const quota = new PreviewQuota(temp.db, { now: () => now });
    await quota.consume(preview, "192.0.2.50");
    await quota.consume(preview, "192.0.2.50");
    const late = await refusal(quota.consume(preview, "192.0.2.50"));
    expect(late.headers?.["Retry-After"]).toBe("1");
    now = new Date("2026-11-24T00:00:00.000Z");
    const next = await quota.consume(preview, "192.0.2.50");
    expect(next).toMatchObject({ day: "2026-11-24", used: 1, remaining: 1, resetSeconds: 86_400 });
  });

  it("consume() counts an IPv6 /64 as one client and an IPv4-mapped address as its IPv4", async () => {
    const preview = fresh("v6", 2);
    const quota = new PreviewQuota(temp.db, { now: clock(AT) });
    await quota.consume(preview, "2001:db8:aa:bb::1");
    await quota.consume(preview, "2001:0db8:00aa:00bb:ffff:1:2:3");
    expect((await refusal(quota.consume(preview, "2001:db8:aa:bb:9::9"))).status).toBe(429);
    await quota.consume(preview, "2001:db8:aa:bc::1");
    const mapped = fresh("mapped", 1);
    await quota.consume(mapped, "::ffff:192.0.2.77");
    expect((await refusal(quota.consume(mapped, "192.0.2.77"))).status).toBe(429);
  });

  it("consume() answers 503 state_unavailable when the database is gone, and refuses a bad limit", async () => {
    const gone = await openDatabase({ databaseUrl: temp.url, onWarn: () => undefined });
    await gone.close();
    const error = await refusal(new PreviewQuota(gone, { now: clock(AT) }).consume(ROUTING, "192.0.2.1"));
    expect(error.status).toBe(503);
    expect(error.code).toBe("state_unavailable");
    expect(error.headers?.["Retry-After"]).toEqual(expect.any(String));
    await expect(new PreviewQuota(temp.db).consume(fresh("bad", 0), "192.0.2.1")).rejects.toThrow(RangeError);
    expect(() => new PreviewQuota(temp.db, { key: new Uint8Array(16) })).toThrow(RangeError);
  });

  it("previewBody() and previewHeaders() add rate_limit and upgrade, and refuse fields that clash", async () => {
    const preview = fresh("body", 5);
    const allowance = await new PreviewQuota(temp.db, { now: clock(AT) }).consume(preview, "192.0.2.200");
    const body = previewBody({ task: "code", recommendation: { model: "m", provider: "p" } }, preview, allowance);
    expect(body).toEqual({
      ok: true,
      preview: true,
      task: "code",
      recommendation: { model: "m", provider: "p" },
      rate_limit: { limit: 5, remaining: 4, scope: "ip_per_utc_day" },
      upgrade: { premium_endpoint: "/api/premium/test", payment_info: "/api/payment/info", buy_credits: "/api/payment/buy-credits", preview_shows: "test" },
    });
    expect(previewHeaders(allowance)).toEqual({ "RateLimit-Limit": "5", "RateLimit-Remaining": "4", "RateLimit-Reset": "19800", "RateLimit-Policy": "5;w=86400" });
    expect(() => previewBody({ upgrade: 1 }, preview, allowance)).toThrow(/upgrade/);
  });

  it("prunePreviewUsage() deletes days before yesterday and keeps yesterday and today", async () => {
    const preview = fresh("prune", 5);
    for (const at of ["2026-11-20T10:00:00Z", "2026-11-22T10:00:00Z", "2026-11-23T10:00:00Z"]) {
      await new PreviewQuota(temp.db, { now: clock(new Date(at)) }).consume(preview, "192.0.2.3");
    }
    const days = async () =>
      (await temp.db.query<{ day: string }>(`SELECT to_char(day, 'YYYY-MM-DD') AS day FROM preview_usage WHERE route = $1 ORDER BY day`, [preview.route])).rows.map((r) => r.day);
    expect(await days()).toEqual(["2026-11-20", "2026-11-22", "2026-11-23"]);
    expect(await prunePreviewUsage(temp.db, AT)).toBe(1);
    expect(await days()).toEqual(["2026-11-22", "2026-11-23"]);
    expect(await prunePreviewUsage(temp.db, AT)).toBe(0);
  });
});
