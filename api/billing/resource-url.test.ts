import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineRoute } from "../registry/define.ts";
import { MAX_RESOURCE_URL, resourceUrl } from "./resource-url.ts";

const route = defineRoute({
  method: "GET",
  path: "/api/premium/things/:name",
  tier: "premium",
  summary: "A premium thing.",
  tags: ["premium"],
  query: z.strictObject({ task: z.string().optional(), top_n: z.string().optional() }),
  response: z.object({ ok: z.literal(true) }),
  render: () => ({ ok: true as const }),
});
const BASE = "https://feed.example.org";

describe("resourceUrl", () => {
  it("keeps the path and the declared parameters in the order sent, and nothing else", () => {
    const url = new URL(`${BASE}/api/premium/things/gpu?top_n=3&utm_source=x&task=code&task=chat`);
    expect(resourceUrl(BASE, route, url)).toBe(`${BASE}/api/premium/things/gpu?top_n=3&task=code&task=chat`);
    expect(resourceUrl(BASE, route, new URL(`${BASE}/api/premium/things/gpu?junk=1`))).toBe(`${BASE}/api/premium/things/gpu`);
  });

  it("drops the query, then the path's own text, when the URL would pass the bound", () => {
    const longQuery = new URL(`${BASE}/api/premium/things/gpu?task=${"a".repeat(MAX_RESOURCE_URL)}`);
    expect(resourceUrl(BASE, route, longQuery)).toBe(`${BASE}/api/premium/things/gpu`);
    const longPath = new URL(`${BASE}/api/premium/things/${"b".repeat(MAX_RESOURCE_URL)}?task=code`);
    expect(resourceUrl(BASE, route, longPath)).toBe(`${BASE}/api/premium/things/:name`);
  });
});
