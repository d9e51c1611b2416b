/**
 * The bundled snapshots (what `npm start` serves on a fresh clone): every free GET route answers 200 and
 * its body passes its response schema. A route that cannot be served from the bundle fails here.
 */
import { describe, expect, it } from "vitest";
import { routes } from "../registry/index.ts";
import { useBundledServer } from "../testing/bundled-server.ts";
import { examplePath } from "./helpers.ts";
// Every answer is checked against the OpenAPI document (operation, status, headers, body).
import { contractFetch as fetch } from "../testing/openapi-contract.ts";

const running = useBundledServer();

describe("bundled snapshots", () => {
  it("cover every snapshot type a free route reads, labelled replay or live", async () => {
    const manifest = running().store;
    const needed = new Set(routes.flatMap((r) => r.snapshots ?? []));
    for (const type of needed) {
      const snap = manifest.get(type);
      expect(snap, `bundled snapshot ${type}`).toBeDefined();
      expect(["replay", "live"]).toContain(snap?.meta.provenance);
    }
  });

  for (const route of routes.filter((r) => r.method === "GET" && (r.tier === "free" || r.tier === "discovery"))) {
    it(`GET ${route.path} answers 200 from the bundle with a body its schema accepts`, async () => {
      const res = await fetch(running().url + examplePath(route).replace("2025-01-14", running().store.dates("status").at(-1) ?? ""));
      expect(res.status).toBe(200);
      if ((res.headers.get("content-type") ?? "").includes("json")) {
        const parsed = route.response.safeParse(await res.json());
        expect(parsed.success, parsed.success ? "" : JSON.stringify(parsed.error.issues.slice(0, 3))).toBe(true);
      } else {
        expect((await res.text()).length).toBeGreaterThan(100);
      }
    });
  }
});
