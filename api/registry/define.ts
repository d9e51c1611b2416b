import type { RouteDef } from "./types.ts";

/** Declare a route; the identity function that gives the declaration its types. */
export function defineRoute<Q, P, R>(def: RouteDef<Q, P, R>): RouteDef<Q, P, R> {
  return def;
}
