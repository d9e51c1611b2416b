/**
 * The warehouse files a running server hands to researchers: every declared table's Parquet day files
 * (`<snapshots>/warehouse/<table>/<YYYY-MM-DD>.parquet`, from the server's own snapshots folder first, then
 * the bundled one, as api/serve/layered-snapshots.ts serves snapshots) and a `warehouse.duckdb` built from
 * exactly those files.
 *
 * Where warehouse.duckdb comes from: the server builds its own copy (never into the tracked snapshots folder)
 * with the builder server.ts passes in (pipelines/lib/warehouse/build.ts), when it is absent or older than
 * the newest partition, and again whenever the set of partitions changed (a scheduled run wrote some). It
 * builds at the first request that needs the file, and with `eager` also at start and after every snapshot
 * reload. One build at a time; the builder writes a temp file and renames it over the old one, so a download
 * in progress keeps reading the old file through its open descriptor, and serving opens the file read-only
 * with plain file I/O (no DuckDB lock that could block a build).
 */
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readdir, stat } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { WarehouseTables } from "../../pipelines/contract/warehouse-tables.ts";
import type { SnapshotMeta } from "../registry/types.ts";

/** File name of a day partition. */
export const PARTITION_FILE = /^(\d{4}-\d{2}-\d{2})\.parquet$/;

/** One day file of one table, as served. */
export interface WarehousePartition {
  date: string;
  path: string;
  bytes: number;
  mtimeMs: number;
}

/** The built database as served. */
export interface WarehouseDbFile {
  path: string;
  bytes: number;
  builtAt: Date;
}

/**
 * What a build gets: the files to load (table → paths), where to write, and the manifest entries to record
 * (the served ones when the server names them, else the first folder's manifest.json).
 */
export interface WarehouseBuildJob {
  partitions: Record<string, string[]>;
  target: string;
  manifestDir: string;
  manifest?: SnapshotMeta[];
}

/** Builds warehouse.duckdb at `job.target` atomically (temp file + rename). */
export type WarehouseDbBuilder = (job: WarehouseBuildJob) => Promise<void>;

/** Options for {@link WarehouseFiles}. */
export interface WarehouseFilesOptions {
  /** Snapshot folders, the one whose files win first (the server's own DATA_DIR/snapshots, then SNAPSHOTS_DIR). */
  dirs: readonly string[];
  /** The declared tables: no other folder is ever listed or served. */
  tables: WarehouseTables;
  /** Where this server keeps its built warehouse.duckdb. */
  dbPath: string;
  /**
   * The manifest entries the server serves (type by type the newer of its folders', as layered-snapshots.ts
   * picks them), recorded in the database's `snapshot_manifest`; without it, the first folder with a manifest.json.
   */
  manifest?: () => SnapshotMeta[];
  /** Without a builder the server serves `dbPath` as it finds it (or nothing). */
  build?: WarehouseDbBuilder;
  /** How long a listing of the partitions is reused, in ms (default 10 000); `invalidate()` drops it at once. */
  listingTtlMs?: number;
  onWarn?: (message: string) => void;
}

/** Every declared table's partitions (ascending by date), plus what says whether a build is current. */
export interface WarehouseListing {
  tables: Record<string, WarehousePartition[]>;
  /** Hash of every served path, size and mtime: equal listings have equal signatures. */
  signature: string;
  /** mtime of the newest partition (0 without any). */
  newestMtimeMs: number;
}

/** The Parquet partitions and warehouse.duckdb of one server. */
export class WarehouseFiles {
  readonly #options: WarehouseFilesOptions;
  #listing: { at: number; value: Promise<WarehouseListing> } | undefined;
  #builtSignature: string | undefined;
  #building: Promise<void> | undefined;

  constructor(options: WarehouseFilesOptions) {
    this.#options = options;
  }

  /** Declared table names, sorted. */
  get tableNames(): string[] {
    return Object.keys(this.#options.tables).sort();
  }

  get tables(): WarehouseTables {
    return this.#options.tables;
  }

  /** Report a problem to the server's warning sink. */
  warn(message: string): void {
    this.#options.onWarn?.(message);
  }

  /** Drop the cached listing (after a snapshot reload). */
  invalidate(): void {
    this.#listing = undefined;
  }

  /** Every declared table's partitions, the first folder winning a date present in several. */
  listing(): Promise<WarehouseListing> {
    const ttl = this.#options.listingTtlMs ?? 10_000;
    const now = Date.now();
    if (!this.#listing || now - this.#listing.at > ttl) {
      const value = this.#scan();
      this.#listing = { at: now, value };
      value.catch(() => {
        if (this.#listing?.value === value) this.#listing = undefined;
      });
    }
    return this.#listing.value;
  }

  /** The paths where the partition of `table` on `date` may be, in the order they win; empty for an undeclared table. */
  candidates(table: string, date: string): string[] {
    if (!Object.hasOwn(this.#options.tables, table) || !/^\d{4}-\d{2}-\d{2}$/.test(date) || !isCalendarDate(date)) return [];
    return this.#options.dirs.map((dir) => join(dir, "warehouse", table, `${date}.parquet`));
  }

  /** Where the database file is served from. */
  get dbPath(): string {
    return this.#options.dbPath;
  }

  /**
   * The database, built first when it is missing or older than the partitions served; null when there is
   * none and no builder. A failed build leaves the previous file in place (and warns) when there is one.
   * With `waitForFresh: false` an older file is answered at once while the rebuild runs (the listing does
   * this; only a server without any file waits).
   */
  async database(options: { waitForFresh?: boolean } = {}): Promise<WarehouseDbFile | null> {
    const build = this.#options.build;
    if (!build) return this.#statDb();
    const listing = await this.listing();
    if (this.#builtSignature === listing.signature) {
      const current = await this.#statDb();
      if (current) return current;
    }
    if (this.#builtSignature === undefined) {
      // A file left by an earlier process is current when no partition is newer than it.
      const found = await this.#statDb();
      if (found && found.builtAt.getTime() >= listing.newestMtimeMs) {
        this.#builtSignature = listing.signature;
        return found;
      }
    }
    if (options.waitForFresh === false) {
      const previous = await this.#statDb();
      if (previous) {
        this.#rebuild(build, listing).catch((error: unknown) => this.warn(`warehouse.duckdb: rebuild failed, serving the previous build: ${(error as Error).message}`));
        return previous;
      }
    }
    try {
      await this.#rebuild(build, listing);
    } catch (error) {
      const previous = await this.#statDb();
      if (!previous) throw error;
      this.#options.onWarn?.(`warehouse.duckdb: rebuild failed, serving the previous build: ${(error as Error).message}`);
      return previous;
    }
    return this.#statDb();
  }

  /** Resolves when no build is running (before the server removes its folder). */
  async idle(): Promise<void> {
    await this.#building?.catch(() => {});
  }

  /** One build at a time; a caller that arrives during a build waits for it. */
  #rebuild(build: WarehouseDbBuilder, listing: WarehouseListing): Promise<void> {
    this.#building ??= (async () => {
      try {
        const target = this.#options.dbPath;
        await mkdir(dirname(target), { recursive: true });
        const partitions = Object.fromEntries(Object.entries(listing.tables).map(([t, parts]) => [t, parts.map((p) => p.path)]));
        const manifestDir = this.#options.dirs.find((d) => existsSync(join(d, "manifest.json"))) ?? this.#options.dirs.at(-1) ?? dirname(target);
        const manifest = this.#options.manifest?.();
        await build({ partitions, target, manifestDir, ...(manifest ? { manifest } : {}) });
        this.#builtSignature = listing.signature;
      } finally {
        this.#building = undefined;
      }
    })();
    return this.#building;
  }

  async #statDb(): Promise<WarehouseDbFile | null> {
    try {
      const s = await stat(this.#options.dbPath);
      return s.isFile() ? { path: this.#options.dbPath, bytes: s.size, builtAt: s.mtime } : null;
    } catch {
      return null;
    }
  }

  async #scan(): Promise<WarehouseListing> {
    const tables: Record<string, WarehousePartition[]> = {};
    const hash = createHash("sha256");
    let newest = 0;
    for (const table of this.tableNames) {
      const byDate = new Map<string, WarehousePartition>();
      for (const dir of this.#options.dirs) {
        const folder = join(dir, "warehouse", table);
        let names: string[];
        try {
          names = await readdir(folder);
        } catch {
          continue;
        }
        for (const name of names) {
          const date = PARTITION_FILE.exec(name)?.[1];
          if (!date || byDate.has(date) || !isCalendarDate(date)) continue;
          const path = join(folder, name);
          try {
            const s = await stat(path);
            if (s.isFile()) byDate.set(date, { date, path, bytes: s.size, mtimeMs: s.mtimeMs });
          } catch {
            // Removed between readdir and stat: not served.
          }
        }
      }
      const parts = [...byDate.values()].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
      for (const p of parts) {
        hash.update(`${p.path}\0${p.bytes}\0${p.mtimeMs}\n`);
        newest = Math.max(newest, p.mtimeMs);
      }
      tables[table] = parts;
    }
    return { tables, signature: hash.digest("hex"), newestMtimeMs: newest };
  }
}

/** Whether YYYY-MM-DD names a real UTC day. */
export function isCalendarDate(date: string): boolean {
  const t = Date.parse(`${date}T00:00:00Z`);
  return !Number.isNaN(t) && new Date(t).toISOString().startsWith(date);
}

const attached = new WeakMap<object, WarehouseFiles>();

/** Tie a server's warehouse files to the snapshots it serves (server.ts does this at start). */
export function attachWarehouseFiles(snapshots: object, files: WarehouseFiles): void {
  attached.set(snapshots, files);
}

/** The warehouse files of the server serving `snapshots`, if it set them up. */
export function warehouseFilesOf(snapshots: object): WarehouseFiles | undefined {
  return attached.get(snapshots);
}
