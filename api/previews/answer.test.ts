import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiError } from "../registry/types.ts";
import { openTempDatabase, type TempDatabase } from "../state/testing/temp-database.ts";
import { answerPreview, previewSpecOf } from "./answer.ts";
import type { PreviewSpec } from "./catalog.ts";
import { PreviewQuota } from "./quota.ts";

let temp: TempDatabase;
beforeAll(async () => {
  temp = await openTempDatabase();
}, 60_000);
afterAll(async () => {
  await temp?.close();
});

const spec = (name: string, limit = 2): PreviewSpec => ({ route: `/api/preview/answer-${name}`, limit, premiumEndpoint: "/api/premium/x", shows: "test" });
const used = async (route: string) =>
  (await temp.db.query<{ n: number }>("SELECT coalesce(sum(count), 0)::int AS n FROM preview_usage WHERE route = $1", [route])).rows[0]!.n;

describe("answerPreview", () => {
  it("counts a call only once its fields rendered: a failed render uses none of the quota", async () => {
    const quota = new PreviewQuota(temp.db);
    const s = spec("fail");
    const failing = answerPreview({ spec: s, counter: quota, address: "203.0.113.7", head: false, fields: () => Promise.reject(new ApiError(404, "unknown_model", "no such model")) });
    await expect(failing).rejects.toMatchObject({ status: 404 });
    expect(await used(s.route)).toBe(0);
    const ok = await answerPreview({ spec: s, counter: quota, address: "203.0.113.7", head: false, fields: async () => ({ pick: "a" }) });
    expect(ok.body).toMatchObject({ ok: true, preview: true, pick: "a", rate_limit: { limit: 2, remaining: 1 } });
    expect(ok.headers["RateLimit-Remaining"]).toBe("1");
    expect(await used(s.route)).toBe(1);
  });

  it("a HEAD reads the allowance without counting, and is refused like a GET once the quota is used", async () => {
    const quota = new PreviewQuota(temp.db);
    const s = spec("head", 1);
    const call = (head: boolean) => answerPreview({ spec: s, counter: quota, address: "203.0.113.8", head, fields: async () => ({ pick: "a" }) });
    const before = await call(true);
    expect(before.headers["RateLimit-Remaining"]).toBe("1");
    expect(before.body).toMatchObject({ rate_limit: { limit: 1, remaining: 1 } });
    expect(await used(s.route)).toBe(0);
    expect((await call(false)).headers["RateLimit-Remaining"]).toBe("0");
    expect(await used(s.route)).toBe(1);
    await expect(call(true)).rejects.toMatchObject({ status: 429, code: "preview_limit_reached" });
    await expect(call(false)).rejects.toMatchObject({ status: 429 });
    expect(await used(s.route)).toBe(1);
  });
});

describe("previewSpecOf", () => {
  it("refuses a preview route that names no quota, or another route's", () => {
    expect(previewSpecOf({ path: "/api/preview/routing", preview: "/api/preview/routing" }).limit).toBe(5);
    expect(() => previewSpecOf({ path: "/api/preview/routing" })).toThrow(/names no preview/);
    expect(() => previewSpecOf({ path: "/api/preview/other", preview: "/api/preview/routing" })).toThrow(/names the quota/);
  });
});
