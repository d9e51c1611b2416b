import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { httpUrl } from "../fields.ts";
import { statusEntry } from "./status.ts";

describe("httpUrl", () => {
  it("takes http and https URLs only: a javascript: or data: link from an upstream is refused", () => {
    for (const url of ["https://status.example.com/", "http://example.com/a?b=c"]) expect(httpUrl.safeParse(url).success, url).toBe(true);
    for (const url of ["javascript:alert(1)", "data:text/html,<script>alert(1)</script>", "ftp://example.com/", "vbscript:x", "/relative"]) {
      expect(httpUrl.safeParse(url).success, url).toBe(false);
    }
  });

  it("guards the links of the snapshot types, such as a status page's URL", () => {
    const entry = { name: "P", provider: "p", status: "operational", statusPageUrl: "https://status.example.com/", components: [] };
    expect(statusEntry.safeParse(entry).success).toBe(true);
    expect(statusEntry.safeParse({ ...entry, statusPageUrl: "javascript:alert(1)" }).error?.issues.map((i) => i.path.join("."))).toEqual(["statusPageUrl"]);
  });

  it("is what every snapshot contract uses for a URL: none declares a bare z.url(), which takes any scheme", () => {
    const dir = new URL("./", import.meta.url);
    const loose = readdirSync(dir).filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts") && readFileSync(new URL(f, dir), "utf8").includes("z.url()"));
    expect(loose).toEqual([]);
  });
});
