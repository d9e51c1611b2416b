/** GET /docs on the real server over HTTP: an HTML page listing every registered route, listed itself in /api/meta. */
import { describe, expect, it } from "vitest";
import { escapeHtml } from "../docs/reference-html.ts";
import { routes } from "../registry/index.ts";
import { useBundledServer } from "../testing/bundled-server.ts";
// Every answer is checked against the OpenAPI document (operation, status, headers, body).
import { contractFetch as fetch } from "../testing/openapi-contract.ts";

const running = useBundledServer();

describe("GET /docs", () => {
  it("answers 200 text/html naming every registered method and path", async () => {
    const res = await fetch(`${running().url}/docs`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const html = await res.text();
    expect(html.startsWith("<!doctype html>")).toBe(true);
    for (const r of routes) expect(html, `${r.method} ${r.path}`).toContain(`<code>${r.method} ${escapeHtml(r.path)}</code>`);
    expect(html).not.toContain(running().url);
  });

  it("links its stylesheet, which /docs.css serves as text/css", async () => {
    const html = await (await fetch(`${running().url}/docs`)).text();
    expect(html).toContain('<link rel="stylesheet" href="/docs.css">');
    const css = await fetch(`${running().url}/docs.css`);
    expect(css.status).toBe(200);
    expect(css.headers.get("content-type")).toBe("text/css; charset=utf-8");
    expect(await css.text()).toContain("table {");
  });

  it("is a discovery route in /api/meta, with an ETag and a 304 on revalidation", async () => {
    const meta = (await (await fetch(`${running().url}/api/meta`)).json()) as { api: { endpoints: { path: string; tier: string; content_type: string }[] } };
    expect(meta.api.endpoints.find((e) => e.path === "/docs")).toMatchObject({ tier: "discovery", content_type: "text/html; charset=utf-8" });
    const first = await fetch(`${running().url}/docs`);
    const etag = first.headers.get("etag");
    expect(etag).toBeTruthy();
    const again = await fetch(`${running().url}/docs`, { headers: { "if-none-match": etag ?? "" } });
    expect(again.status).toBe(304);
  });
});
