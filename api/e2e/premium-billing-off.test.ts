/**
 * PREMIUM_BILLING=off over real HTTP: the server on the bundled snapshots, no state database, premium routes
 * answered without a token, without billing and without a receipt; /api/meta, /llms.txt and /openapi.json
 * say billing is off. With the default (on) and no state they answer 503 and say nothing of the kind.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../server.ts";
import { BUNDLED_SNAPSHOTS } from "../testing/bundled-server.ts";
import { contractFetch, contractFetchWith } from "../testing/openapi-contract.ts";

let off: RunningServer | undefined;
let on: RunningServer | undefined;
const start = (premiumBilling: boolean) =>
  startServer({ state: false, port: 0, host: "127.0.0.1", snapshotsDir: BUNDLED_SNAPSHOTS, rateLimitPerMinute: 0, trustProxy: null, premiumBilling, onWarn: () => {} });

beforeAll(async () => {
  [off, on] = await Promise.all([start(false), start(true)]);
});
afterAll(async () => {
  await Promise.all([off?.close(), on?.close()]);
});

type Json = Record<string, any>;

/** Every answer is checked against the OpenAPI document of the instance that gave it (billing off or on). */
const billingOffFetch = contractFetchWith({ premiumBilling: false });
const fetch = (url: string, init?: RequestInit) => (url.startsWith(off!.url) ? billingOffFetch : contractFetch)(url, init);

describe("PREMIUM_BILLING=off", () => {
  it("serves a premium route without a token, billing or receipt", async () => {
    const res = await fetch(`${off!.url}/api/premium/routing?task=code&top_n=3`);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const body = (await res.json()) as Json;
    expect(body.ok).toBe(true);
    expect(body.billing).toBeUndefined();
    expect(body.receipt).toBeUndefined();
    const other = await fetch(`${off!.url}/api/premium/cost/projection?model=gpt-4o&input_tokens_per_day=1000&output_tokens_per_day=100`);
    expect(other.status).toBe(200);
    expect(((await other.json()) as Json).receipt).toBeUndefined();
  });

  it("still validates input: a bad query is a 400 JSON error", async () => {
    const res = await fetch(`${off!.url}/api/premium/routing?top_n=999999`);
    expect(res.status).toBe(400);
    expect(((await res.json()) as Json).ok).toBe(false);
  });

  it("says so in /api/meta, /llms.txt and /openapi.json", async () => {
    const meta = (await (await fetch(`${off!.url}/api/meta`)).json()) as Json;
    expect(meta.api.premium_billing).toMatchObject({ enabled: false });
    expect(meta.api.premium_billing.note).toContain("PREMIUM_BILLING=off");
    expect(await (await fetch(`${off!.url}/llms.txt`)).text()).toContain("Premium billing is off on this instance (PREMIUM_BILLING=off)");
    const openapi = (await (await fetch(`${off!.url}/openapi.json`)).json()) as Json;
    expect(openapi.info.description).toContain("PREMIUM_BILLING=off");
  });

  it("is off by default: billing on, premium routes 503 without state, and no billing-off notice anywhere", async () => {
    expect((await fetch(`${on!.url}/api/premium/routing?task=code`)).status).toBe(503);
    const meta = (await (await fetch(`${on!.url}/api/meta`)).json()) as Json;
    expect(meta.api.premium_billing).toBeUndefined();
    expect(await (await fetch(`${on!.url}/llms.txt`)).text()).not.toContain("PREMIUM_BILLING=off");
    expect(((await (await fetch(`${on!.url}/openapi.json`)).json()) as Json).info.description).not.toContain("PREMIUM_BILLING=off");
  });
});
