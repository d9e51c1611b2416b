/**
 * SnapshotReader over a SNAPSHOTS_DIR: holds manifest.json and every type's latest.json in memory, reloads
 * when the manifest changes (fs.watch on the folder plus a cheap mtime poll, since watchers miss events on
 * some file systems and after atomic renames), lists dated files per type, and reads dated files on demand.
 * A missing or corrupt file never throws out of here: the type is simply absent.
 */
import { watch, type FSWatcher } from "node:fs";
import { readFile, readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import type { LoadedSnapshot, SnapshotMeta, SnapshotReader } from "../registry/types.ts";
import { neverSucceeded, parseManifest } from "./manifest.ts";

const DATE_FILE = /^(\d{4}-\d{2}-\d{2})\.json$/;
/** Folders under SNAPSHOTS_DIR that hold no snapshot type. */
const NOT_TYPES = new Set(["warehouse"]);

/** Options for {@link SnapshotStore}. */
export interface SnapshotStoreOptions {
  /** Poll interval of the manifest mtime check in ms (default 2000; 0 disables the poll). */
  pollMs?: number;
  /** Watch the folder for manifest changes (default true). */
  watch?: boolean;
  /** Receives a line for every file that could not be used. */
  onWarn?: (message: string) => void;
}

interface Generation {
  id: number;
  snapshots: Map<string, LoadedSnapshot>;
  dates: Map<string, string[]>;
  metas: Map<string, SnapshotMeta>;
  manifestKey: string;
}

/** In-memory snapshot state for one folder; call `load()` once, `close()` at shutdown. */
export class SnapshotStore implements SnapshotReader {
  readonly dir: string;
  #gen: Generation = { id: 0, snapshots: new Map(), dates: new Map(), metas: new Map(), manifestKey: "" };
  #listeners = new Set<(generation: number) => void>();
  #watcher: FSWatcher | undefined;
  #timer: NodeJS.Timeout | undefined;
  #debounce: NodeJS.Timeout | undefined;
  #reloading: Promise<void> | undefined;
  #again = false;
  readonly #opts: Required<Omit<SnapshotStoreOptions, "onWarn">> & Pick<SnapshotStoreOptions, "onWarn">;

  constructor(dir: string, options: SnapshotStoreOptions = {}) {
    this.dir = dir;
    this.#opts = { pollMs: options.pollMs ?? 2000, watch: options.watch ?? true, onWarn: options.onWarn };
  }

  /** Generation number; it grows by one on every reload, and response caches key on it. */
  get generation(): number {
    return this.#gen.id;
  }

  /** Load everything once and start watching the manifest. */
  async start(): Promise<void> {
    await this.reload();
    if (this.#opts.watch) {
      try {
        this.#watcher = watch(this.dir, (_event, file) => {
          if (file === null || String(file) === "manifest.json") this.#schedule();
        });
        this.#watcher.on("error", () => this.#watcher?.close());
      } catch (cause) {
        this.#warn(`cannot watch ${this.dir}: ${(cause as Error).message}; relying on the mtime poll`);
      }
    }
    if (this.#opts.pollMs > 0) {
      this.#timer = setInterval(() => void this.#poll(), this.#opts.pollMs);
      this.#timer.unref();
    }
  }

  /** Stop watching. */
  close(): void {
    this.#watcher?.close();
    if (this.#timer) clearInterval(this.#timer);
    if (this.#debounce) clearTimeout(this.#debounce);
  }

  /** Call `listener` after each reload that produced a new generation. */
  onReload(listener: (generation: number) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  get<T = unknown>(type: string): LoadedSnapshot<T> | undefined {
    return this.#gen.snapshots.get(type) as LoadedSnapshot<T> | undefined;
  }

  types(): string[] {
    return [...this.#gen.metas.keys()].sort();
  }

  /** Manifest entry of a type even when its latest.json is unusable. */
  meta(type: string): SnapshotMeta | undefined {
    return this.#gen.metas.get(type);
  }

  dates(type: string): string[] {
    return this.#gen.dates.get(type) ?? [];
  }

  /** Every folder holding dated files, with its dates. */
  allDates(): Map<string, string[]> {
    return this.#gen.dates;
  }

  async dated(type: string, date: string): Promise<unknown | undefined> {
    // Only names seen in the listing reach the file system: no path built from raw input.
    if (!this.dates(type).includes(date)) return undefined;
    try {
      return JSON.parse(await readFile(join(this.dir, type, `${date}.json`), "utf8"));
    } catch (cause) {
      this.#warn(`snapshot ${type}/${date}.json unreadable: ${(cause as Error).message}`);
      return undefined;
    }
  }

  /** Re-read the manifest, every latest.json and the dated listings; concurrent calls coalesce. */
  async reload(): Promise<void> {
    if (this.#reloading) {
      this.#again = true;
      return this.#reloading;
    }
    this.#reloading = (async () => {
      do {
        this.#again = false;
        await this.#reloadOnce();
      } while (this.#again);
    })().finally(() => {
      this.#reloading = undefined;
    });
    return this.#reloading;
  }

  /**
   * The manifest's path when an earlier load read it and the latest found none (the folder or its manifest.json
   * was removed while serving): health reports it, as nothing is served from this folder any more. Null otherwise.
   */
  lostManifest(): string | null {
    return this.#lost;
  }

  #lost: string | null = null;
  #everLoaded = false;

  async #reloadOnce(): Promise<void> {
    const manifestPath = join(this.dir, "manifest.json");
    const key = await this.#manifestKey();
    let metas = new Map<string, SnapshotMeta>();
    try {
      const parsed = parseManifest(await readFile(manifestPath, "utf8"));
      metas = parsed.types;
      for (const p of parsed.problems) this.#warn(p);
      this.#everLoaded = true;
      this.#lost = null;
    } catch (cause) {
      const err = cause as NodeJS.ErrnoException;
      if (err.code === "ENOENT") {
        this.#warn(`no manifest at ${manifestPath}: no snapshot type is served`);
        if (this.#everLoaded) this.#lost = manifestPath;
      }
      else if (this.#gen.id > 0 && this.#gen.snapshots.size > 0) {
        // A manifest that cannot be read on reload: keep serving the last good state.
        this.#warn(`manifest ${manifestPath} unreadable, keeping the previous state: ${err.message}`);
        this.#gen = { ...this.#gen, manifestKey: key };
        return;
      } else this.#warn(`manifest ${manifestPath} unreadable: ${err.message}`);
    }

    const snapshots = new Map<string, LoadedSnapshot>();
    await Promise.all(
      [...metas].filter(([, meta]) => !neverSucceeded(meta)).map(async ([type, meta]) => {
        const file = join(this.dir, type, "latest.json");
        try {
          const data: unknown = JSON.parse(await readFile(file, "utf8"));
          snapshots.set(type, { type, data, meta });
        } catch (cause) {
          this.#warn(`snapshot ${file} unusable, type ${type} is absent: ${(cause as Error).message}`);
        }
      }),
    );
    const dates = await this.#listDates();
    this.#gen = { id: this.#gen.id + 1, snapshots, dates, metas, manifestKey: key };
    for (const l of this.#listeners) l(this.#gen.id);
  }

  async #listDates(): Promise<Map<string, string[]>> {
    const out = new Map<string, string[]>();
    let entries: import("node:fs").Dirent[];
    try {
      entries = await readdir(this.dir, { withFileTypes: true });
    } catch {
      return out;
    }
    await Promise.all(
      entries
        .filter((e) => e.isDirectory() && !NOT_TYPES.has(e.name) && !e.name.startsWith("."))
        .map(async (e) => {
          try {
            const files = await readdir(join(this.dir, e.name));
            const dates = files.flatMap((f) => DATE_FILE.exec(f)?.[1] ?? []).sort();
            if (dates.length > 0) out.set(e.name, dates);
          } catch {
            /* folder vanished between the two listings */
          }
        }),
    );
    return out;
  }

  async #manifestKey(): Promise<string> {
    try {
      const s = await stat(join(this.dir, "manifest.json"));
      return `${s.ino}:${s.size}:${s.mtimeMs}`;
    } catch {
      return "absent";
    }
  }

  async #poll(): Promise<void> {
    if ((await this.#manifestKey()) !== this.#gen.manifestKey) this.#schedule();
  }

  /**
   * A watcher event can arrive after the poll already reloaded that manifest, or for a change that is not a new
   * manifest (a chmod): reload only when the manifest's identity differs from the one last loaded, so the
   * generation, and every response cache keyed on it, moves only with the data.
   */
  async #reloadIfChanged(): Promise<void> {
    if ((await this.#manifestKey()) !== this.#gen.manifestKey) await this.reload();
  }

  #schedule(): void {
    // A burst of events (or poll ticks faster than the delay) coalesces into one reload 50 ms after the first.
    if (this.#debounce) return;
    this.#debounce = setTimeout(() => {
      this.#debounce = undefined;
      void this.#reloadIfChanged();
    }, 50);
    this.#debounce.unref();
  }

  #warn(message: string): void {
    this.#opts.onWarn?.(message);
  }
}
