/** The query parameter names a route's query schema declares: the only ones any route reads (api/security.md). */
import type { AnyRoute } from "./types.ts";

const namesByRoute = new WeakMap<AnyRoute, ReadonlySet<string>>();

/** Names of the route's declared query parameters (empty without a query schema); computed once per route. */
export function declaredQueryNames(route: AnyRoute): ReadonlySet<string> {
  let names = namesByRoute.get(route);
  if (!names) {
    const shape = (route.query as { shape?: Record<string, unknown> } | undefined)?.shape;
    names = new Set(shape && typeof shape === "object" ? Object.keys(shape) : []);
    namesByRoute.set(route, names);
  }
  return names;
}
