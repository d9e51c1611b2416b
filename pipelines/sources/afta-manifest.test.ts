import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { classifyManifest } from "./afta-manifest.ts";

const valid = {
  standard: "agent-fair-trade",
  version: "1.0",
  publisher: { name: "Example Data", url: "https://data.example-pub.test" },
  no_charge_guarantees: ["5xx", { id: "stale_data", description: "…" }],
  extra: { anything: true },
};
const classify = (v: unknown) => classifyManifest(JSON.stringify(v));

describe("classifyManifest()", () => {
  it("classifyManifest() accepts a manifest with the required fields and echoes its version", () => {
    expect(classify(valid)).toEqual({ status: "valid", version: "1.0" });
    expect(classify({ ...valid, version: 1, no_charge_guarantees: undefined, guarantees: ["5xx"] })).toEqual({ status: "valid", version: "1" });
    expect(classifyManifest(readFileSync("pipelines/fixtures/tensorfeed.ai/.well-known/agent-fair-trade.json", "utf8")).status).toBe("valid");
  });

  it("classifyManifest() names missing or malformed fields", () => {
    const noGuarantees = classify({ ...valid, no_charge_guarantees: undefined });
    expect(noGuarantees).toMatchObject({ status: "invalid" });
    expect(noGuarantees.status === "invalid" && noGuarantees.reason).toMatch(/no_charge_guarantees/);
    const badPublisher = classify({ ...valid, publisher: { name: "X", url: "not a url" } });
    expect(badPublisher.status === "invalid" && badPublisher.reason).toMatch(/publisher\.url/);
    const empty = classify({ ...valid, no_charge_guarantees: [] });
    expect(empty.status).toBe("invalid");
    const noStandard = classify({ ...valid, standard: "" });
    expect(noStandard.status === "invalid" && noStandard.reason).toMatch(/standard/);
  });

  it("classifyManifest() rejects bodies that are not a JSON object", () => {
    expect(classifyManifest("<html>404</html>")).toMatchObject({ status: "invalid", reason: expect.stringMatching(/not JSON/) });
    expect(classifyManifest("[1,2]")).toMatchObject({ status: "invalid", reason: expect.stringMatching(/array/) });
    expect(classifyManifest("null")).toMatchObject({ status: "invalid", reason: expect.stringMatching(/null/) });
  });
});
