/** The route registry: the one list routing, validation, /api/meta, OpenAPI, /llms.txt and the e2e tests read. */
import type { AnyRoute } from "../app.ts";
import { allRoutes } from "../routes/index.ts";

/** Every registered route. */
export const routes: readonly AnyRoute[] = allRoutes;

/** The registered route for a method and rou3 path, if any. */
export function findRoute(method: string, path: string): AnyRoute | undefined {
  return routes.find((r) => r.method === method && r.path === path);
}
