import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineRoute } from "../registry/define.ts";
import { routes } from "../registry/index.ts";
import { ENDPOINTS_MD_PATH, renderReferenceMarkdown } from "./reference-markdown.ts";

describe(ENDPOINTS_MD_PATH, () => {
  it("is exactly what the registry generates (run `npm run docs` after changing a route)", async () => {
    const onDisk = await readFile(resolve(import.meta.dirname, "../..", ENDPOINTS_MD_PATH), "utf8");
    const generated = renderReferenceMarkdown(routes);
    if (onDisk !== generated) {
      const a = onDisk.split("\n");
      const b = generated.split("\n");
      const line = a.findIndex((l, i) => l !== b[i]);
      expect.fail(
        `${ENDPOINTS_MD_PATH} differs from the registry at line ${line + 1}: file has ${JSON.stringify(a[line])}, registry gives ${JSON.stringify(b[line])}; run npm run docs`,
      );
    }
  });

  it("names every registered route once, with its heading and a contents link to it", () => {
    const md = renderReferenceMarkdown(routes);
    for (const r of routes) {
      const heading = `### ${r.method} ${r.path}`;
      expect(md.split("\n").filter((l) => l === heading), heading).toHaveLength(1);
    }
    const anchors = [...md.matchAll(/\]\(#([^)]+)\)/g)].map((m) => m[1]);
    expect(new Set(anchors).size).toBe(routes.length);
  });
});

describe("renderReferenceMarkdown", () => {
  const tricky = defineRoute({
    method: "GET",
    path: "/api/x",
    tier: "free",
    summary: "a | b <script>alert(1)</script>\nnext line",
    tags: [],
    query: z.strictObject({ q: z.string().describe("pipe | inside").optional() }),
    response: z.object({}),
    render: () => ({}),
  });

  it("keeps table cells on one line with pipes escaped, and no raw HTML from declarations", () => {
    const md = renderReferenceMarkdown([tricky]);
    expect(md).toContain("| GET | [`/api/x`](#get-apix) | free | a \\| b &lt;script>alert(1)&lt;/script> next line |");
    expect(md).toContain("| `q` | query | string | no |  | pipe \\| inside |");
    expect(md).not.toContain("<script>");
  });

  it("is deterministic: no timestamp, no host, the same text twice", () => {
    const first = renderReferenceMarkdown(routes);
    expect(renderReferenceMarkdown(routes)).toBe(first);
    expect(first).not.toMatch(/https?:\/\/(localhost|127\.0\.0\.1)/);
    expect(first).not.toMatch(/\b20\d\d-\d\d-\d\dT\d\d:\d\d/);
  });
});
