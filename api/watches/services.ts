/** The state the watch routes use, set once by api/server.ts when state is on (the routes answer 503 without it). */
import { ApiError } from "../registry/types.ts";
import type { Credits, Database } from "../state/types.ts";

/** What the watch routes need: the state database and the ledger's token lookup. */
export interface WatchServices {
  db: Database;
  credits: Pick<Credits, "tokenByBearer">;
  /** WATCHES_ALLOW_PRIVATE_CALLBACKS: loopback and private callback addresses are allowed (self-hosting, tests). */
  allowPrivateCallbacks?: boolean;
}

let services: WatchServices | undefined;

/** Set (or clear) this process's watch services. */
export function setWatchServices(value: WatchServices | undefined): void {
  services = value;
}

/** This process's watch services; 503 state_unavailable when state is off. */
export function watchServices(): WatchServices {
  if (!services) throw new ApiError(503, "state_unavailable", "watches need the state database, which this instance does not run");
  return services;
}
