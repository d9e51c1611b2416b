import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EARLIEST_UPSTREAM_MS, expiryDay, expiryTime, FUTURE_ALLOWANCE_MS, LATEST_UPSTREAM_MS, pastDay, pastTime, upstreamMs } from "./time.ts";

const NOW = new Date("2026-11-22T12:00:00Z");

describe("upstreamMs()", () => {
  it("upstreamMs() reads date strings and Unix seconds, nothing else", () => {
    expect(upstreamMs("2026-11-22T05:41:00-06:00")).toBe(Date.parse("2026-11-22T11:41:00Z"));
    expect(upstreamMs("Fri, 20 Nov 2026 10:00:00 GMT")).toBe(Date.parse("2026-11-20T10:00:00Z"));
    expect(upstreamMs(1763856000)).toBe(1763856000000);
    for (const bad of ["", "  ", "soon", null, undefined, Number.NaN, Number.POSITIVE_INFINITY, 1e308]) expect(upstreamMs(bad)).toBeNull();
  });
});

describe("pastTime()", () => {
  it("pastTime() gives ISO 8601 UTC for a time between 1990 and a day after the fetch", () => {
    expect(pastTime("2026-11-22T05:41:00-06:00", NOW)).toBe("2026-11-22T11:41:00.000Z");
    expect(pastTime(" Fri, 20 Nov 2026 10:00:00 +0000 ", NOW)).toBe("2026-11-20T10:00:00.000Z");
    expect(pastTime(1763856000, NOW)).toBe("2025-11-23T00:00:00.000Z");
    expect(pastTime("1990-01-01T00:00:00Z", NOW)).toBe("1990-01-01T00:00:00.000Z");
    expect(pastTime(new Date(NOW.getTime() + FUTURE_ALLOWANCE_MS).toISOString(), NOW)).toBe("2026-11-23T12:00:00.000Z");
  });

  it("pastTime() is null for unreadable, pre-1990, far-future and expanded-year values", () => {
    expect(pastTime("not a date", NOW)).toBeNull();
    expect(pastTime(null, NOW)).toBeNull();
    expect(pastTime("1989-12-31T23:59:59Z", NOW)).toBeNull();
    expect(pastTime(0, NOW)).toBeNull();
    expect(pastTime(-1, NOW)).toBeNull();
    expect(pastTime(new Date(NOW.getTime() + FUTURE_ALLOWANCE_MS + 1).toISOString(), NOW)).toBeNull();
    expect(pastTime("Fri, 31 Dec 9999 23:59:59 +0000", NOW)).toBeNull();
    expect(pastTime("+010000-01-01T00:00:00Z", NOW)).toBeNull();
    expect(pastTime("+275760-09-13T00:00:00Z", NOW)).toBeNull();
  });

  it("pastTime() never guesses units: milliseconds and microseconds where seconds are expected are null", () => {
    expect(pastTime(1763856000000, NOW)).toBeNull();
    expect(pastTime(1763856000000000, NOW)).toBeNull();
    expect(pastTime(1e16, NOW)).toBeNull();
  });
});

describe("expiryTime()", () => {
  it("expiryTime() keeps a time years ahead and rejects only unreadable or absurd values", () => {
    expect(expiryTime("2031-06-01T00:00:00-05:00")).toBe("2031-06-01T05:00:00.000Z");
    expect(expiryTime("9999-12-31T23:59:59.999Z")).toBe("9999-12-31T23:59:59.999Z");
    expect(expiryTime(new Date(LATEST_UPSTREAM_MS).toISOString())).toBe("9999-12-31T23:59:59.999Z");
    expect(expiryTime("+010000-01-01T00:00:00Z")).toBeNull();
    expect(expiryTime(new Date(EARLIEST_UPSTREAM_MS - 1).toISOString())).toBeNull();
    expect(expiryTime("later")).toBeNull();
    expect(expiryTime(undefined)).toBeNull();
    expect(expiryTime(1763856000000000)).toBeNull();
  });
});

describe("pastDay() and expiryDay()", () => {
  it("pastDay() keeps a real day up to a day after the fetch", () => {
    expect(pastDay("2026-11-22", NOW)).toBe("2026-11-22");
    expect(pastDay(" 2026-11-23 ", NOW)).toBe("2026-11-23");
    expect(pastDay("2024-02-29", NOW)).toBe("2024-02-29");
  });

  it("pastDay() is null for a day that does not exist, another format, before 1990 or after the allowance", () => {
    for (const bad of ["2026-02-30", "2025-02-29", "2026-13-01", "2026-00-10", "2026-11-2", "20261122", "2026-11-22T00:00:00Z", "1989-12-31", "2026-11-24", "9999-12-31", "", null, undefined]) {
      expect(pastDay(bad, NOW), String(bad)).toBeNull();
    }
  });

  it("expiryDay() keeps a real day however far ahead, up to year 9999", () => {
    expect(expiryDay("2031-01-01")).toBe("2031-01-01");
    expect(expiryDay("9999-12-31")).toBe("9999-12-31");
    expect(expiryDay("+010000-01-01")).toBeNull();
    expect(expiryDay("2026-02-30")).toBeNull();
    expect(expiryDay("1970-01-01")).toBeNull();
  });
});

describe("upstreamMs() whatever the host's time zone", () => {
  // Node re-reads TZ when it is assigned, so the parse below runs as on a host in Berlin (UTC+2 in August).
  const saved = process.env["TZ"];
  beforeAll(() => {
    process.env["TZ"] = "Europe/Berlin";
  });
  afterAll(() => {
    if (saved === undefined) delete process.env["TZ"];
    else process.env["TZ"] = saved;
  });

  it("runs with a non-UTC host zone", () => {
    expect(new Date(Date.UTC(2026, 7, 14)).getTimezoneOffset()).toBe(-120);
  });

  it("upstreamMs() reads a date or date-time without a zone as UTC", () => {
    expect(upstreamMs("2026-08-14T10:00:00")).toBe(Date.UTC(2026, 7, 14, 10));
    expect(upstreamMs("2026-08-14 10:00")).toBe(Date.UTC(2026, 7, 14, 10));
    expect(upstreamMs("14 Aug 2026")).toBe(Date.UTC(2026, 7, 14));
    expect(upstreamMs("Fri, 14 Aug 2026 10:00:00")).toBe(Date.UTC(2026, 7, 14, 10));
    expect(upstreamMs("Aug 14, 2026")).toBe(Date.UTC(2026, 7, 14));
    expect(upstreamMs("2026-08-14")).toBe(Date.UTC(2026, 7, 14));
  });

  it("upstreamMs() pins a 12-hour clock's AM or PM to UTC (neither is a zone) and reads GMT+2 as an offset", () => {
    expect(upstreamMs("Aug 14, 2026 10:00 AM")).toBe(Date.UTC(2026, 7, 14, 10));
    expect(upstreamMs("2026/08/14 10:00 am")).toBe(Date.UTC(2026, 7, 14, 10));
    expect(upstreamMs("Fri Aug 14 2026 10:00:00 PM")).toBe(Date.UTC(2026, 7, 14, 22));
    expect(upstreamMs("14 Aug 2026 10:00 GMT+2")).toBe(Date.UTC(2026, 7, 14, 8));
    expect(upstreamMs("Fri Aug 14 2026 10:00:00 GMT+0200 (Central European Summer Time)")).toBe(Date.UTC(2026, 7, 14, 8));
    expect(upstreamMs("Aug 14 2026 10:00 CEST")).toBe(Date.UTC(2026, 7, 14, 8));
  });

  it("upstreamMs() refuses a text longer than any date before a pattern runs on it", () => {
    expect(upstreamMs("1Z(".repeat(40_000))).toBeNull();
    expect(upstreamMs(`14 Aug 2026${" ".repeat(200)}`)).toBe(Date.UTC(2026, 7, 14));
    expect(upstreamMs(`14 Aug 2026 10:00${"x".repeat(100)}`)).toBeNull();
  });

  it("upstreamMs() reads numeric offsets and the documented zone abbreviations", () => {
    const at10 = (offsetHours: number) => Date.UTC(2026, 7, 14, 10) - offsetHours * 3_600_000;
    expect(upstreamMs("Fri, 14 Aug 2026 10:00:00 +0200")).toBe(at10(2));
    expect(upstreamMs("Fri, 14 Aug 2026 10:00:00 CEST")).toBe(at10(2));
    expect(upstreamMs("Fri, 14 Aug 2026 10:00:00 cet")).toBe(at10(1));
    expect(upstreamMs("Fri, 14 Aug 2026 10:00:00 BST")).toBe(at10(1));
    expect(upstreamMs("Fri, 14 Aug 2026 10:00:00 EDT")).toBe(at10(-4));
    expect(upstreamMs("Fri, 14 Aug 2026 10:00:00 PST")).toBe(at10(-8));
    expect(upstreamMs("Fri, 14 Aug 2026 10:00:00 UT")).toBe(at10(0));
    expect(upstreamMs("Fri, 14 Aug 2026 10:00 GMT")).toBe(at10(0));
    expect(upstreamMs("Fri, 14 Aug 2026 10:00:00 Z")).toBe(at10(0));
    expect(upstreamMs("14 Aug 26 10:00 JST")).toBe(at10(9));
    expect(upstreamMs("2026-08-14T10:00:00-04:00")).toBe(at10(-4));
  });

  it("upstreamMs() leaves ambiguous or unknown abbreviations and impossible days unread", () => {
    expect(upstreamMs("Fri, 14 Aug 2026 10:00:00 IST")).toBeNull();
    expect(upstreamMs("Fri, 14 Aug 2026 10:00:00 XYZ")).toBeNull();
    expect(upstreamMs("30 Feb 2026 10:00:00 GMT")).toBeNull();
    expect(upstreamMs("Fri, 14 Aug 2026 25:00:00 GMT")).toBeNull();
  });

  it("pastTime() gives the article's own date, not null, for a CEST pubDate", () => {
    expect(pastTime("Fri, 14 Aug 2026 10:00:00 CEST", new Date("2026-08-15T00:00:00Z"))).toBe("2026-08-14T08:00:00.000Z");
  });
});
