import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { testSource } from "../lib/testing/contract.ts";
import { betterStackSource, mapBetterStackState } from "./status-betterstack.ts";
import type { StatusMeta } from "./status-common.ts";

const F = "pipelines/fixtures";
const meta = (provider: string): StatusMeta => ({ provider, name: provider, statusPageUrl: `https://status.${provider}.test` });
const run = (file: string, m: StatusMeta) =>
  betterStackSource.normalize(betterStackSource.parse(readFileSync(`${F}/${file}`, "utf8")), { url: "u", now: new Date(), meta: m })[0]!;

testSource(betterStackSource, [
  { fixture: `${F}/status.together.ai/index.json`, url: "https://status.together.ai/index.json", meta: meta("together") },
  { fixture: `${F}/status.fireworks.ai/index.json`, url: "https://status.fireworks.ai/index.json", meta: meta("fireworks") },
  { fixture: `${F}/status.huggingface.co/index.json`, url: "https://status.huggingface.co/index.json", meta: meta("huggingface") },
]);

describe("betterstack source", () => {
  it("mapBetterStackState() maps operational/degraded/downtime/maintenance and the rest to unknown", () => {
    expect(mapBetterStackState("operational")).toBe("operational");
    expect(mapBetterStackState("degraded")).toBe("degraded");
    expect(mapBetterStackState("downtime")).toBe("down");
    expect(mapBetterStackState("maintenance")).toBe("degraded");
    expect(mapBetterStackState("not_monitored")).toBe("unknown");
    expect(mapBetterStackState(null)).toBe("unknown");
  });

  it("normalize() reads resources in order and never turns sections into components", () => {
    const e = run("status.together.ai/index.json", meta("together"));
    expect(e.status).toBe("degraded");
    expect(e.components.map((c) => c.name)).toEqual([
      "Serverless Inference API",
      "Dedicated Endpoints",
      "Batch Inference",
      "Fine-tuning",
      "GPU Clusters",
      "Website",
    ]);
    expect(e.components[1]!.status).toBe("degraded");
  });

  it("normalize() keeps a not_monitored resource as unknown while the page stays operational", () => {
    const e = run("status.huggingface.co/index.json", meta("huggingface"));
    expect(e.status).toBe("operational");
    expect(e.components.find((c) => c.name === "Spaces Proxy")?.status).toBe("unknown");
  });

  it("normalize() lets a downtime resource raise the page to down", () => {
    const body = JSON.stringify({
      data: { attributes: { aggregate_state: "degraded" } },
      included: [{ id: "1", type: "status_page_resource", attributes: { public_name: "API", status: "downtime" } }],
    });
    const e = betterStackSource.normalize(betterStackSource.parse(body), { url: "u", now: new Date(), meta: meta("x") })[0]!;
    expect(e.status).toBe("down");
  });

  it("parse() rejects a document without data.attributes", () => {
    expect(() => betterStackSource.parse(JSON.stringify({ included: [] }))).toThrow(/data/);
  });
});
