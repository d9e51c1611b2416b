import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { main } from "./cli.ts";
import { writeWarehouse } from "./write.ts";

describe("main()", () => {
  it("main() builds the database and lists every table with its row count", async () => {
    const dir = await mkdtemp(join(tmpdir(), "af-whcli-"));
    try {
      await writeWarehouse(dir, "2026-03-01", [{ table: "status_samples", key: ["provider"], rows: [{ provider: "a" }, { provider: "b" }] }]);
      let out = "";
      expect(await main({ dir, stdout: (s) => void (out += s) })).toBe(0);
      expect(out).toContain(`built ${join(dir, "warehouse.duckdb")}`);
      expect(out).toMatch(/^status_samples\s+2$/m);
      expect(out).toMatch(/^snapshot_manifest\s+0$/m);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
