/**
 * A RenderContext over the bundled snapshots, read the way the server reads them, for render tests; one
 * snapshot type can be hidden to test its absence.
 */
import { afterAll, beforeAll } from "vitest";
import type { RenderContext, SnapshotReader } from "../registry/types.ts";
import { SnapshotStore } from "../serve/snapshot-store.ts";

/** Load `snapshots/` for the calling test file; returns the store and a context factory. */
export function useBundledSnapshots(now = new Date("2026-11-22T03:00:00Z")) {
  const store = new SnapshotStore("snapshots", { watch: false, pollMs: 0 });
  beforeAll(() => store.reload());
  afterAll(() => store.close());
  const ctx = (without?: string): RenderContext => {
    const reader: SnapshotReader = {
      get: <T,>(type: string) => (type === without ? undefined : store.get<T>(type)),
      types: () => store.types(),
      dates: (t) => store.dates(t),
      dated: (t, d) => store.dated(t, d),
    };
    return { snapshots: reader, baseUrl: "http://localhost:3000", now };
  };
  return { store, ctx };
}
