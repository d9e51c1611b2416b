import { SingleFlight } from "./single-flight.ts";

/**
 * Computed values kept per key for one data version: when the version changes (new snapshots, a refreshed
 * warehouse) every entry goes at once, so nothing computed from older data is ever returned. Bounded: past
 * `maxEntries` the oldest entry goes. A computation that throws keeps nothing. Callers that ask for the same key
 * and version while it is being computed share that one computation (single-flight.ts).
 */
export class VersionedMemo<T> {
  readonly #max: number;
  #version = "";
  readonly #values = new Map<string, T>();
  readonly #computing = new SingleFlight<T>();

  constructor(maxEntries = 2_000) {
    if (!Number.isInteger(maxEntries) || maxEntries < 1) throw new RangeError(`VersionedMemo: maxEntries must be a positive integer, got ${maxEntries}`);
    this.#max = maxEntries;
  }

  /** Entries held now. */
  get size(): number {
    return this.#values.size;
  }

  /** The value of `key` computed at data version `version`, computing it when absent. */
  async get(version: string, key: string, compute: () => Promise<T>): Promise<T> {
    if (version !== this.#version) {
      this.#values.clear();
      this.#version = version;
    }
    const hit = this.#values.get(key);
    if (hit !== undefined) return hit;
    const value = await this.#computing.run(`${version}\n${key}`, compute);
    // The data may have changed while computing: keep the value only if its version is still current.
    if (version === this.#version) {
      if (this.#values.size >= this.#max) this.#values.delete(this.#values.keys().next().value!);
      this.#values.set(key, value);
    }
    return value;
  }
}
