import { describe, expect, it } from "vitest";
import { HttpError } from "../lib/http/client.ts";
import { NwsAlertsParseError } from "../sources/nws-alerts.ts";
import { describeFailure } from "./weather-alerts-live.ts";

describe("describeFailure()", () => {
  it("describeFailure() names a plain error without details", () => {
    expect(describeFailure(new Error("secret path /x"))).toBe("upstream read failed");
  });

  it("describeFailure() names an HTTP failure by its code, never its URL", () => {
    const reason = describeFailure(new HttpError("GET https://x.test/secret failed", { code: "http_status", url: "https://x.test/secret", status: 503 }));
    expect(reason).toBe("upstream answered HTTP 503");
    expect(describeFailure(new HttpError("t", { code: "timeout", url: "https://x.test/secret" }))).toBe("upstream timed out");
  });

  it("describeFailure() names an unreadable body", () => {
    expect(describeFailure(new NwsAlertsParseError("bad /x"))).toBe("upstream body unreadable");
  });
});
