import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineRoute } from "../registry/define.ts";
import { routes } from "../registry/index.ts";
import { escapeHtml, renderReferenceHtml } from "./reference-html.ts";

describe("renderReferenceHtml", () => {
  it("lists every registered route with an anchor, and links only to paths on this host", () => {
    const html = renderReferenceHtml(routes);
    for (const r of routes) expect(html).toContain(`<h3><code>${r.method} ${escapeHtml(r.path)}</code></h3>`);
    const hrefs = [...html.matchAll(/href="([^"]*)"/g)].map((m) => m[1] ?? "");
    expect(hrefs.length).toBeGreaterThan(routes.length);
    for (const href of hrefs) expect(href, href).toMatch(/^[/#]/);
  });

  it("carries no script and no inline style, and a CSP that loads only its same-origin stylesheet", () => {
    const html = renderReferenceHtml(routes);
    expect(html).not.toMatch(/<script|<style|\sstyle=|\son[a-z]+=/i);
    expect(html).toContain(`content="default-src 'none'; style-src 'self'; base-uri 'none'; form-action 'none'"`);
    expect(html).toContain('<link rel="stylesheet" href="/docs.css">');
  });

  it("escapes every text taken from a declaration", () => {
    const hostile = defineRoute({
      method: "GET",
      path: "/api/<b>",
      tier: "free",
      summary: `<img src=x onerror="alert(1)"> & 'quoted'`,
      description: "</p><script>alert(2)</script>",
      tags: [],
      query: z.strictObject({ q: z.string().describe("<i>hi</i>").optional() }),
      example: `/api/x?a="><script>`,
      response: z.object({}),
      render: () => ({}),
    });
    const html = renderReferenceHtml([hostile]);
    expect(html).not.toMatch(/<script|<img|<b>|<i>/);
    expect(html).toContain("&lt;img src=x onerror=&quot;alert(1)&quot;&gt; &amp; &apos;quoted&apos;");
    expect(html).toContain('href="/api/x?a=&quot;&gt;&lt;script&gt;"');
  });
});
