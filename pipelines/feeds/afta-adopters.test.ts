import { cpSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { AFTA_ADOPTERS, manifestUrl } from "../catalog/afta-adopters.ts";
import { replayPathFor } from "../lib/replay-path.ts";
import { testFeedContext } from "../lib/testing/feed-context.ts";
import { replayFixtures } from "../lib/testing/replay-fixtures.ts";
import { aftaAdoptersFeed, aftaAdoptersSnapshotSchema, runAftaAdopters } from "./afta-adopters.ts";

const NOW = new Date("2026-11-22T06:41:00Z");
const fixtures = replayFixtures();
const client = fixtures.client;
function tempReplay(): string {
  const dir = fixtures.tempDir("afta-");
  for (const a of AFTA_ADOPTERS) cpSync(join("pipelines/fixtures", a.domain), join(dir, a.domain), { recursive: true });
  return dir;
}

describe("aftaAdoptersFeed", () => {
  it("aftaAdoptersFeed declares type, daily cadence, 2-day SLA and every manifest URL", () => {
    expect(aftaAdoptersFeed.type).toBe("afta-adopters");
    expect(aftaAdoptersFeed.slaSeconds).toBe(172_800);
    expect(aftaAdoptersFeed.urls()).toEqual(AFTA_ADOPTERS.map((a) => `https://${a.domain}/.well-known/agent-fair-trade.json`));
  });

  it("run() classifies the recorded sites as valid, invalid and unreachable", async () => {
    const ctx = testFeedContext({ http: client("pipelines/fixtures"), now: NOW });
    const out = await aftaAdoptersFeed.run(ctx);
    expect(() => aftaAdoptersSnapshotSchema.parse(out.data)).not.toThrow();
    const by = Object.fromEntries(out.data.adopters.map((a) => [a.domain, a]));
    expect(by["tensorfeed.ai"]).toEqual({ domain: "tensorfeed.ai", status: "valid", version: "1.0" });
    expect(by["terminalfeed.io"]?.status).toBe("invalid");
    expect(by["terminalfeed.io"]?.reason).toMatch(/publisher\.url/);
    expect(by["terminalfeed.io"]?.reason).toMatch(/no_charge_guarantees/);
    expect(by["vr.org"]?.status).toBe("unreachable");
    expect(by["vr.org"]?.reason).toMatch(/404/);
    expect(out.data.adopters.map((a) => a.domain)).toEqual(["tensorfeed.ai", "terminalfeed.io", "vr.org"]);
    expect(out.sources?.find((s) => s.id === "vr.org")?.ok).toBe(false);
    expect(ctx.notices).toHaveLength(2);
  });

  it("run() reports a body that is not JSON as invalid and a 500 as unreachable", async () => {
    const dir = tempReplay();
    writeFileSync(join(dir, replayPathFor(manifestUrl("tensorfeed.ai"))), "<html>maintenance</html>");
    writeFileSync(join(dir, `${replayPathFor(manifestUrl("terminalfeed.io"))}.meta.json`), JSON.stringify({ status: 500 }));
    const out = await runAftaAdopters(testFeedContext({ http: client(dir), now: NOW }));
    const by = Object.fromEntries(out.data.adopters.map((a) => [a.domain, a]));
    expect(by["tensorfeed.ai"]).toMatchObject({ status: "invalid", reason: expect.stringMatching(/not JSON/) });
    expect(by["terminalfeed.io"]).toMatchObject({ status: "unreachable", reason: expect.stringMatching(/500/) });
  });

  it("runAftaAdopters() fails when every site is unreachable", async () => {
    const empty = fixtures.tempDir("afta-empty-");
    await expect(runAftaAdopters(testFeedContext({ http: client(empty), now: NOW }))).rejects.toThrow(/all 3 sites unreachable/);
  });
});
