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
      const sample = (provider: string) => ({
        ts: "2026-03-01T10:00:00Z", date: "2026-03-01", provider, status: "operational", components_total: 1, components_degraded: 0, components_down: 0,
      });
      await writeWarehouse(dir, "2026-03-01", [{ table: "status_samples", key: ["ts", "provider"], rows: [sample("a"), sample("b")] }]);
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
