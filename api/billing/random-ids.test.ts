import { describe, expect, it } from "vitest";
import { randomHex } from "./random-ids.ts";

describe("randomHex", () => {
  it("gives lower-case hex of the asked length, never the same id twice across pool refills", () => {
    const seen = new Set<string>();
    for (let i = 0; i < 2000; i++) {
      const id = randomHex(12);
      expect(id).toMatch(/^[0-9a-f]{24}$/);
      seen.add(id);
    }
    expect(seen.size).toBe(2000);
  });

  it("refuses sizes outside 1 to 4096 bytes", () => {
    expect(() => randomHex(0)).toThrow(/1 to 4096/);
    expect(() => randomHex(4097)).toThrow(/1 to 4096/);
    expect(randomHex(4096)).toHaveLength(8192);
  });
});
