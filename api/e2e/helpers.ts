/** Shared pieces of the end-to-end tests: the standard fixture and example values for path parameters. */
import { copyFile, mkdir } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import type { AnyRoute } from "../app.ts";
import { warehouseFilesRoutes } from "../routes/warehouse-files.ts";
import { createSnapshotFixture, newsBody, STATUS_BODY, type SnapshotFixture } from "./snapshot-fixture.ts";

/** Types the standard fixture holds. */
export const FIXTURE_TYPES = ["news", "status"];

/** The committed day file the warehouse file route's example names (served at the same relative path). */
export const EXAMPLE_DAY_FILE = warehouseFilesRoutes.find((r) => r.path === "/warehouse/:table/:file")!.example!.slice(1);

/** news (one day) and status (two days), and one warehouse day file copied from the committed snapshots. */
export async function standardFixture(): Promise<SnapshotFixture> {
  const fixture = await createSnapshotFixture([
    { type: "news", dated: { "2025-01-15": newsBody(40) } },
    { type: "status", dated: { "2025-01-14": STATUS_BODY, "2025-01-15": STATUS_BODY } },
  ]);
  const target = join(fixture.dir, EXAMPLE_DAY_FILE);
  await mkdir(dirname(target), { recursive: true });
  await copyFile(resolve(import.meta.dirname, "../../snapshots", EXAMPLE_DAY_FILE), target);
  return fixture;
}

/** Routes that read their upstream at request time (falling back to their own snapshot copy). */
export const READS_UPSTREAM_AT_REQUEST = new Set(["/api/climate/weather-alerts"]);

/** Values for path parameters found in registered routes; a new parameter name must be added here. */
const PARAM_EXAMPLES: Record<string, string> = { date: "2025-01-14", type: "status" };

/** A concrete URL path for a route, its `:params` filled from PARAM_EXAMPLES. */
export function examplePath(route: AnyRoute): string {
  if (route.example) return route.example;
  return route.path.replace(/:([A-Za-z_]\w*)/g, (_m, name: string) => {
    const v = PARAM_EXAMPLES[name];
    if (v === undefined) throw new Error(`e2e: no example value for path parameter :${name} of ${route.path}; add one to PARAM_EXAMPLES`);
    return v;
  });
}
