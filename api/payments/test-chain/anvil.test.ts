import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { AnvilError, findAnvil, startAnvil } from "./anvil.ts";

describe("startAnvil()", () => {
  it("fails at once, naming the exit, when the binary does not run as anvil", async () => {
    await expect(startAnvil({ chainId: 31337, bin: "/bin/false" })).rejects.toThrow(AnvilError);
    await expect(startAnvil({ chainId: 31337, bin: "/bin/false" })).rejects.toThrow(/anvil exited \(code 1\) before listening/);
  });

  it("starts anvil on a port the OS picked, answering its chain id, and stops it", { timeout: 20_000 }, async () => {
    const anvil = await startAnvil({ chainId: 31337 });
    try {
      expect(anvil.rpcUrl).toBe(`http://127.0.0.1:${anvil.port}`);
      const res = await fetch(anvil.rpcUrl, { method: "POST", headers: { "content-type": "application/json" }, body: '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}' });
      expect(((await res.json()) as { result: string }).result).toBe("0x7a69");
    } finally {
      await anvil.stop();
      await anvil.stop();
    }
    expect(existsSync(`/proc/${anvil.pid}`)).toBe(false);
  });
});

describe("findAnvil()", () => {
  it("takes ANVIL_BIN when it is executable and says why when it is not", () => {
    expect(findAnvil({ ANVIL_BIN: "/bin/false" })).toEqual({ found: true, path: "/bin/false" });
    const dir = mkdtempSync(join(tmpdir(), "agentfeed-anvil-bin-"));
    try {
      const plain = join(dir, "anvil");
      writeFileSync(plain, "not a program", { mode: 0o644 });
      expect(findAnvil({ ANVIL_BIN: plain })).toEqual({ found: false, reason: `ANVIL_BIN=${plain} is not an executable file` });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    expect(findAnvil({})).toMatchObject({ found: true, path: expect.stringMatching(/@foundry-rs\/anvil-linux-amd64\/bin\/anvil$/) });
  });
});
