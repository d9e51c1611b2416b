/**
 * What the free response cache is valid for: one number that moves whenever the data a render reads moves,
 * that is when the snapshots reload (their generation) or the warehouse reader rebuilds its views over changed
 * day files (its version). Two property reads per call, so the fast path can ask on every request.
 */

/** A counter that grows each time the snapshot generation or the warehouse version it last saw has changed. */
export function dataGeneration(snapshots: { readonly generation: number }, warehouse?: { readonly version: number }): () => number {
  let snapshotGeneration = snapshots.generation;
  let warehouseVersion = warehouse?.version ?? 0;
  let current = 1;
  return () => {
    const s = snapshots.generation;
    const w = warehouse?.version ?? 0;
    if (s !== snapshotGeneration || w !== warehouseVersion) {
      snapshotGeneration = s;
      warehouseVersion = w;
      current++;
    }
    return current;
  };
}
