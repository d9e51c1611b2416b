import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { testSource } from "../lib/testing/contract.ts";
import type { StatusMeta } from "./status-common.ts";
import { googleCloudSource, mapGoogleImpact } from "./status-google-cloud.ts";

const FIXTURE = "pipelines/fixtures/status.cloud.google.com/incidents.json";
const meta: StatusMeta = {
  provider: "google",
  name: "Google Cloud",
  statusPageUrl: "https://status.cloud.google.com",
  components: ["Vertex Gemini API", "Vertex AI Online Prediction"],
};
const NOW = new Date("2026-11-22T10:00:00Z");
const run = (m: StatusMeta, now = NOW, body = readFileSync(FIXTURE, "utf8")) =>
  googleCloudSource.normalize(googleCloudSource.parse(body), { url: "u", now, meta: m })[0]!;

testSource(googleCloudSource, [{ fixture: FIXTURE, url: "https://status.cloud.google.com/incidents.json", meta, now: NOW }]);

describe("google cloud source", () => {
  it("mapGoogleImpact() prefers status_impact and falls back to severity", () => {
    expect(mapGoogleImpact("SERVICE_OUTAGE", "low")).toBe("down");
    expect(mapGoogleImpact("SERVICE_DISRUPTION", "high")).toBe("degraded");
    expect(mapGoogleImpact("SERVICE_INFORMATION", null)).toBe("operational");
    expect(mapGoogleImpact(null, "high")).toBe("down");
    expect(mapGoogleImpact(undefined, "medium")).toBe("degraded");
    expect(mapGoogleImpact("SOMETHING_NEW", "extreme")).toBe("unknown");
  });

  it("normalize() marks products with a current incident and ignores ended ones", () => {
    const e = run(meta);
    expect(e.components).toEqual([
      { name: "Vertex Gemini API", status: "degraded" },
      { name: "Vertex AI Online Prediction", status: "operational" },
    ]);
    expect(e.status).toBe("degraded");
  });

  it("normalize() ignores current incidents on products the catalog did not list", () => {
    const e = run({ ...meta, components: ["Vertex AI Online Prediction"] });
    expect(e.status).toBe("operational");
  });

  it("normalize() treats an incident as current until its end time passes", () => {
    const during = run(meta, new Date("2026-11-19T15:00:00Z"));
    expect(during.components[1]).toEqual({ name: "Vertex AI Online Prediction", status: "down" });
    expect(during.status).toBe("down");
  });

  it("normalize() without a product list reports the products of current incidents", () => {
    const e = run({ provider: "google", name: "G", statusPageUrl: "https://status.cloud.google.com" });
    expect(e.components.map((c) => c.name)).toEqual(["Vertex Gemini API", "Google Cloud SQL"]);
  });

  it("parse() rejects a body that is not an incident array", () => {
    expect(() => googleCloudSource.parse(JSON.stringify({ incidents: [] }))).toThrow(/unexpected body shape/);
  });
});
