/**
 * Concurrent misses share one render. When a cached free answer expires or the data moves, every request in
 * flight for it misses the cache at once (50 connections: 50 misses); without this each would render the same
 * answer, and a warehouse-backed render (several DuckDB queries) then costs the process tens of times its work
 * at the worst moment. With it, the first miss renders and the others await that render's result.
 */
export class SingleFlight<T> {
  #running = new Map<string, Promise<T>>();

  /** The running computation for `key`, or `compute()` started now (and forgotten once it settles). */
  run(key: string, compute: () => Promise<T>): Promise<T> {
    const running = this.#running.get(key);
    if (running) return running;
    const started = new Promise<T>((resolve) => resolve(compute())).finally(() => this.#running.delete(key));
    this.#running.set(key, started);
    return started;
  }

  /** Keys with a computation running (for tests). */
  get size(): number {
    return this.#running.size;
  }
}
