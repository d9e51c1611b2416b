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
    const failing = answerPreview({ spec: s, counter: quota, address: "203.0.113.7", fields: () => Promise.reject(new ApiError(404, "unknown_model", "no such model")) });
    await expect(failing).rejects.toMatchObject({ status: 404 });
    expect(await used(s.route)).toBe(0);
    const ok = await answerPreview({ spec: s, counter: quota, address: "203.0.113.7", fields: async () => ({ pick: "a" }) });
    expect(ok.body).toMatchObject({ ok: true, preview: true, pick: "a", rate_limit: { limit: 2, remaining: 1 } });
    expect(ok.headers["RateLimit-Remaining"]).toBe("1");
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
