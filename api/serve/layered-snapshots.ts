/**
 * The snapshots a running server serves when its own scheduler writes: the bundled folder (the tracked
 * snapshots/, never written by the server) and the local folder in its data folder (DATA_DIR/snapshots),
 * type by type the one with the newer last success. Dated files of both are listed; a date present in both is
 * read from the local folder. The generation grows whenever either folder reloads.
 */
import { aheadOfClock } from "../../pipelines/contract/freshness.ts";
import type { LoadedSnapshot, SnapshotMeta } from "../registry/types.ts";
import type { ServedSnapshots } from "../app.ts";
import type { SnapshotStore } from "./snapshot-store.ts";

/**
 * Which of two manifest entries is newer: last success, then date. A last success ahead of this server's clock
 * (aheadOfClock) counts as none, so an entry stamped by a fast clock does not hide this server's own newer runs.
 */
export function newer(a: SnapshotMeta, b: SnapshotMeta, now = new Date()): boolean {
  const successAt = (m: SnapshotMeta) => (m.lastSuccess && !aheadOfClock(m, now) ? Date.parse(m.lastSuccess) : Number.NEGATIVE_INFINITY);
  const [sa, sb] = [successAt(a), successAt(b)];
  return sa !== sb ? sa > sb : a.date > b.date;
}

function attemptedAt(meta: SnapshotMeta): number {
  const at = meta.lastAttempt ? Date.parse(meta.lastAttempt) : Number.NaN;
  return Number.isNaN(at) ? Number.NEGATIVE_INFINITY : at;
}

/** Bundled and local snapshot stores seen as one. */
export class LayeredSnapshots implements ServedSnapshots {
  constructor(
    readonly bundled: SnapshotStore,
    readonly local: SnapshotStore,
  ) {}

  get generation(): number {
    return this.bundled.generation + this.local.generation;
  }

  onReload(listener: (generation: number) => void): () => void {
    const a = this.bundled.onReload(() => listener(this.generation));
    const b = this.local.onReload(() => listener(this.generation));
    return () => {
      a();
      b();
    };
  }

  get<T = unknown>(type: string): LoadedSnapshot<T> | undefined {
    const b = this.bundled.get<T>(type);
    const l = this.local.get<T>(type);
    if (!b || !l) return l ?? b;
    return newer(l.meta, b.meta) ? l : b;
  }

  /** Manifest entry of a type (the newer of the two), even when its latest.json is unusable. */
  meta(type: string): SnapshotMeta | undefined {
    const loaded = this.get(type);
    if (loaded) return loaded.meta;
    const b = this.bundled.meta(type);
    const l = this.local.meta(type);
    if (!b || !l) return l ?? b;
    return newer(l, b) ? l : b;
  }

  /**
   * The entry of the folder that ran the type last, by last attempt: the served data may be the bundled folder's
   * while this server's own runs of the type fail (health reports their error).
   */
  latestAttempt(type: string): SnapshotMeta | undefined {
    const b = this.bundled.meta(type);
    const l = this.local.meta(type);
    if (!b || !l) return l ?? b;
    return attemptedAt(l) >= attemptedAt(b) ? l : b;
  }

  /**
   * The bundled folder's manifest when it was read once and is gone (see SnapshotStore.lostManifest). The local
   * folder's loss is not reported: the bundled folder still serves every type it holds.
   */
  lostManifest(): string | null {
    return this.bundled.lostManifest();
  }

  types(): string[] {
    return [...new Set([...this.bundled.types(), ...this.local.types()])].sort();
  }

  dates(type: string): string[] {
    return [...new Set([...this.bundled.dates(type), ...this.local.dates(type)])].sort();
  }

  async dated(type: string, date: string): Promise<unknown | undefined> {
    if (this.local.dates(type).includes(date)) return this.local.dated(type, date);
    return this.bundled.dated(type, date);
  }
}
