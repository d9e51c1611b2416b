import { describe, expect, it } from "vitest";
import { routes } from "../registry/index.ts";
import { mcpCatalog, quoted, toolName, toolRequest, unknownArguments } from "./tools.ts";

const { tools, resources } = mcpCatalog(routes);
const tool = (name: string) => tools.find((t) => t.name === name)!;

describe("MCP tools from the route registry", () => {
  it("makes one tool of every free, preview and premium endpoint that answers JSON, and of the bearer's own account routes, each with a unique MCP-safe name", () => {
    const own = (r: (typeof routes)[number]) => r.tier === "payment" && r.bearer === "required";
    const expected = routes.filter(
      (r) =>
        (["free", "preview", "premium"].includes(r.tier) || own(r)) &&
        (r.method === "GET" || r.tier === "premium" || own(r)) &&
        !r.byteRanges &&
        (r.contentType === undefined || r.contentType.startsWith("application/json")),
    );
    expect(tools.map((t) => t.route)).toEqual(expected);
    expect(new Set(tools.map((t) => t.name)).size).toBe(tools.length);
    for (const t of tools) expect(t.name).toMatch(/^[a-z0-9_]{1,64}$/);
    expect(tools.some((t) => t.route.tier === "premium")).toBe(true);
  });

  it("names a tool after its path: /api/ dropped, parameters by name, a non-GET method appended", () => {
    expect(toolName(routes.find((r) => r.path === "/api/premium/providers/:name")!)).toBe("premium_providers_name");
    expect(toolName(routes.find((r) => r.path === "/api/premium/watches" && r.method === "POST")!)).toBe("premium_watches_post");
    expect(toolName(routes.find((r) => r.path === "/api/gpu/pricing/cheapest")!)).toBe("gpu_pricing_cheapest");
  });

  it("offers the bearer's balance and watch management as free tools, but not the purchase routes", () => {
    const names = tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(["payment_balance", "premium_watches", "premium_watches_id", "premium_watches_id_delete", "premium_watches_id_test_post"]));
    expect(names).not.toContain("payment_buy_credits_post");
    expect(names).not.toContain("payment_confirm_post");
    expect(tool("premium_watches_id_delete").description).toMatch(/Free; about the bearer token's own account/);
    expect(tool("premium_watches_id_delete").inputSchema.required).toEqual(["id"]);
    expect(toolRequest(tool("premium_watches_id_delete"), { id: "wat_1" })).toEqual({ method: "DELETE", path: "/api/premium/watches/wat_1" });
    expect(toolRequest(tool("premium_watches_id_test_post"), { id: "wat_1" })).toEqual({ method: "POST", path: "/api/premium/watches/wat_1/test" });
  });

  it("takes the route's zod schemas as the input schema: path parameters required, query defaults optional, no other keys", () => {
    const provider = tool("premium_providers_name");
    expect(provider.inputSchema.required).toContain("name");
    expect(provider.inputSchema.additionalProperties).toBe(false);
    const verdict = tool("premium_route_verdict");
    expect(verdict.inputSchema.properties.task).toMatchObject({ enum: ["code", "reasoning", "creative", "general"] });
    expect(verdict.inputSchema.required ?? []).not.toContain("task");
    expect(verdict.description).toMatch(/1 credit/);
    const watch = tool("premium_watches_post");
    expect(Object.keys(watch.inputSchema.properties)).toEqual(expect.arrayContaining(["spec", "callback_url"]));
  });

  it("turns arguments into the HTTP request: path parameters encoded, query in order given, JSON body for POST, unknown keys dropped", () => {
    expect(toolRequest(tool("premium_providers_name"), { name: "open ai" })).toEqual({ method: "GET", path: "/api/premium/providers/open%20ai" });
    expect(toolRequest(tool("premium_route_verdict"), { task: "code", max_latency_p95_ms: 900, junk: 1 })).toEqual({ method: "GET", path: "/api/premium/route-verdict?task=code&max_latency_p95_ms=900" });
    const post = toolRequest(tool("premium_watches_post"), { callback_url: "https://example.com/hook", spec: { type: "x" } });
    expect(post).toEqual({ method: "POST", path: "/api/premium/watches", body: JSON.stringify({ callback_url: "https://example.com/hook", spec: { type: "x" } }) });
  });

  it("finds the arguments a tool does not declare, inherited object keys included, quoted safely", () => {
    expect(unknownArguments(tool("premium_routing"), { task: "code", top_n: 1 })).toEqual([]);
    expect(unknownArguments(tool("premium_routing"), { task: "code", topn: 1, constructor: 2, toString: 3 })).toEqual(["topn", "constructor", "toString"]);
    expect(unknownArguments(tool("gpu_pricing_cheapest"), { [`a\u0000\n${"b".repeat(100)}`]: 1 })).toEqual([`a??${"b".repeat(60)}…`]);
    expect(quoted("line\r\nbreak\u2028\u202e", 100)).toBe("line??break??");
  });

  it("offers the free snapshot endpoints without required input and /llms.txt as resources", () => {
    const paths = resources.map((r) => r.path);
    expect(paths).toContain("/api/news");
    expect(paths).toContain("/llms.txt");
    expect(paths).not.toContain("/api/history/:date/:type");
    expect(paths).not.toContain("/api/feed.xml");
  });
});
