import { describe, expect, it } from "vitest";
import { etagOf, matchesIfNoneMatch, pickEncoding, variantEtag } from "./encoding.ts";

describe("pickEncoding()", () => {
  it("prefers br, falls back to gzip, honours q=0 and *", () => {
    expect(pickEncoding("gzip, deflate, br")).toBe("br");
    expect(pickEncoding("gzip")).toBe("gzip");
    expect(pickEncoding("br;q=0, gzip;q=0.5")).toBe("gzip");
    expect(pickEncoding("identity")).toBeNull();
    expect(pickEncoding(null)).toBeNull();
    expect(pickEncoding("*")).toBe("br");
  });
});

describe("matchesIfNoneMatch()", () => {
  const etag = etagOf(new TextEncoder().encode("hello"));
  it("matches the tag, its encoded variants, weak forms and lists", () => {
    expect(matchesIfNoneMatch(etag, etag)).toBe(true);
    expect(matchesIfNoneMatch(variantEtag(etag, "br"), etag)).toBe(true);
    expect(matchesIfNoneMatch(`"x", W/${etag}`, etag)).toBe(true);
    expect(matchesIfNoneMatch("*", etag)).toBe(true);
  });
  it("does not match another tag or an empty header", () => {
    expect(matchesIfNoneMatch('"other"', etag)).toBe(false);
    expect(matchesIfNoneMatch(null, etag)).toBe(false);
  });
});
