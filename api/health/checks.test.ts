import { afterEach, describe, expect, it } from "vitest";
import { publicDetail, runHealthChecks, setHealthChecks } from "./checks.ts";

afterEach(() => setHealthChecks({}));

describe("health check details", () => {
  it("publish an RPC URL as its host only: its API key never leaves the server", async () => {
    setHealthChecks({
      chain: () => Promise.reject(new Error('HTTP request failed.\n\nURL: https://base-mainnet.g.alchemy.com/v2/SECRETapiKEY123?key=abc\nRequest body: {"method":"eth_chainId"}')),
      database: () => Promise.reject(new Error("connect failed (postgresql://agent:hunter2@db.internal:5432/agentfeed)")),
    });
    const checks = await runHealthChecks();
    expect(checks.chain.status).toBe("failed");
    expect(checks.chain.detail).toContain("https://base-mainnet.g.alchemy.com/…");
    expect(checks.chain.detail).not.toMatch(/SECRET|key=abc|\/v2/);
    expect(checks.database.detail).toBe("connect failed (postgres://…");
    expect(checks.signing_key.status).toBe("disabled");
  });

  it("cut any URL to scheme and host, keep the rest of the message, and cap it", () => {
    expect(publicDetail("wss://rpc.example:8546/abc/def failed")).toBe("wss://rpc.example:8546/… failed");
    expect(publicDetail("fetch http://user:pw@10.0.0.1/x?y=z refused")).toBe("fetch http://10.0.0.1/… refused");
    expect(publicDetail("x".repeat(500))).toHaveLength(200);
  });
});
