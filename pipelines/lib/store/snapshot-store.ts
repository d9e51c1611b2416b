/**
 * The snapshot store: dated bodies, latest.json and manifest.json under SNAPSHOTS_DIR, over unstorage (local
 * files through the atomic driver by default; any unstorage driver, e.g. an object store, can be passed).
 *
 * - A body is written only when its stable serialization differs from latest.json.
 * - A failed run touches only the manifest's lastAttempt / lastError / sources; the bodies and lastSuccess stay.
 * - Manifest updates are serialized inside one store, so concurrent feeds never lose each other's entries; on
 *   local files also across processes (a lock folder beside the manifest, `.manifest.lock`, through
 *   proper-lockfile), so two runs writing one folder (two schedulers, a manual run beside the scheduled one)
 *   each re-read the manifest under the lock and keep every type the other wrote.
 */
import { mkdir } from "node:fs/promises";
import { join, resolve } from "node:path";
import { lock } from "proper-lockfile";
import { createStorage, type Driver, type Storage } from "unstorage";
import type { SnapshotMeta } from "../types.ts";
import type { SourceHealth } from "../types.ts";
import { atomicFsDriver } from "./atomic-fs-driver.ts";
import { stableStringify } from "../../contract/stable-stringify.ts";

/** The manifest file: one entry per snapshot type. */
export interface Manifest {
  version: 1;
  types: Record<string, SnapshotMeta>;
}

/** Facts about the type that every manifest entry carries. */
export interface TypeFacts {
  type: string;
  now: Date;
  provenance: "live" | "replay";
  slaSeconds: number;
  cadence: string;
  sources?: SourceHealth[];
}

export interface SuccessInput extends TypeFacts {
  data: unknown;
  rows: number;
}

export interface FailureInput extends TypeFacts {
  error: string;
}

/** What a successful record did. */
export interface SuccessResult {
  changed: boolean;
  /** Date of the dated file latest.json now equals. */
  date: string;
}

export interface SnapshotStoreOptions {
  /** Root folder (default: SNAPSHOTS_DIR or `snapshots/`, resolved from cwd). Ignored when `driver` is given. */
  dir?: string;
  /** Any unstorage driver; defaults to the atomic local-file driver rooted at `dir`. */
  driver?: Driver;
}

export interface SnapshotStore {
  /** Absolute root folder (where the warehouse lives too). */
  readonly dir: string;
  latest<T = unknown>(type: string): Promise<T | undefined>;
  dated<T = unknown>(type: string, date: string): Promise<T | undefined>;
  /** Dates (YYYY-MM-DD, ascending) with a dated file for `type`. */
  dates(type: string): Promise<string[]>;
  manifest(): Promise<Manifest>;
  /** True when `data` serializes differently from the stored latest.json. */
  wouldChange(type: string, data: unknown): Promise<boolean>;
  /** Store a successful run: bodies only on change, manifest always. */
  recordSuccess(input: SuccessInput): Promise<SuccessResult>;
  /** Store a failed attempt: manifest lastAttempt / lastError / sources only. */
  recordFailure(input: FailureInput): Promise<void>;
}

const TYPE_RE = /^[a-z0-9][a-z0-9-]*$/;
const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;
const MANIFEST_KEY = "manifest.json";
/** The cross-process lock of the manifest (a folder proper-lockfile creates and removes). */
export const MANIFEST_LOCK = ".manifest.lock";

/**
 * Hold the manifest's cross-process lock of `dir` while `fn` runs. A holder refreshes the lock every 2 s; one
 * not refreshed for 10 s (its process died) is taken over. Waits up to about a minute for another holder.
 */
async function withFolderLock<R>(dir: string, fn: () => Promise<R>): Promise<R> {
  await mkdir(dir, { recursive: true });
  const release = await lock(dir, {
    lockfilePath: join(dir, MANIFEST_LOCK),
    realpath: false,
    stale: 10_000,
    update: 2_000,
    retries: { retries: 200, minTimeout: 10, maxTimeout: 300, factor: 1.5 },
  });
  try {
    return await fn();
  } finally {
    await release();
  }
}

/** The snapshots folder: SNAPSHOTS_DIR or `snapshots/`, resolved from the current directory. */
export function defaultSnapshotsDir(): string {
  return resolve(process.env.SNAPSHOTS_DIR || "snapshots");
}

/** UTC calendar date (YYYY-MM-DD) of `now`. */
export function utcDate(now: Date): string {
  return now.toISOString().slice(0, 10);
}

/** Open the snapshot store. */
export function createSnapshotStore(options: SnapshotStoreOptions = {}): SnapshotStore {
  const dir = resolve(options.dir ?? defaultSnapshotsDir());
  const storage: Storage = createStorage({ driver: options.driver ?? atomicFsDriver({ base: dir }) });
  let manifestLock: Promise<unknown> = Promise.resolve();
  // Only local files are shared with other processes here; another driver brings its own semantics.
  const acrossProcesses = options.driver === undefined;

  const checkType = (type: string): void => {
    if (!TYPE_RE.test(type)) throw new Error(`snapshot store: invalid type ${JSON.stringify(type)} (want ${TYPE_RE})`);
  };
  const checkDate = (date: string): void => {
    if (!DATE_RE.test(date)) throw new Error(`snapshot store: invalid date ${JSON.stringify(date)} (want YYYY-MM-DD)`);
  };

  const readText = async (key: string): Promise<string | undefined> => {
    const raw: unknown = await storage.getItemRaw(key);
    if (raw === null || raw === undefined) return undefined;
    if (typeof raw === "string") return raw;
    if (raw instanceof Uint8Array) return Buffer.from(raw).toString("utf8");
    return JSON.stringify(raw);
  };
  const readJson = async <T>(key: string): Promise<T | undefined> => {
    const text = await readText(key);
    if (text === undefined) return undefined;
    try {
      return JSON.parse(text) as T;
    } catch (error) {
      throw new Error(`snapshot store: ${key.replace(/:/g, "/")} in ${dir} is not valid JSON`, { cause: error });
    }
  };

  const readManifest = async (): Promise<Manifest> => {
    const m = await readJson<Manifest>(MANIFEST_KEY);
    if (!m) return { version: 1, types: {} };
    if (m.version !== 1 || typeof m.types !== "object" || m.types === null) {
      throw new Error(`snapshot store: manifest.json in ${dir} has unknown shape (version ${String(m.version)})`);
    }
    return m;
  };

  /** Run `fn` on the manifest under the store's lock, then write it back. */
  const updateManifest = <R>(fn: (m: Manifest) => Promise<R> | R): Promise<R> => {
    const update = async () => {
      const m = await readManifest();
      const result = await fn(m);
      await storage.setItem(MANIFEST_KEY, stableStringify(m));
      return result;
    };
    const next = manifestLock.then(() => (acrossProcesses ? withFolderLock(dir, update) : update()));
    manifestLock = next.catch(() => undefined);
    return next;
  };

  const blankMeta = (f: TypeFacts): SnapshotMeta => ({
    type: f.type,
    date: "",
    lastSuccess: null,
    lastAttempt: null,
    lastChanged: null,
    lastError: null,
    rows: 0,
    provenance: f.provenance,
    slaSeconds: f.slaSeconds,
    cadence: f.cadence,
    sources: [],
  });

  const latestKey = (type: string) => `${type}:latest.json`;

  return {
    dir,
    async latest<T>(type: string) {
      checkType(type);
      return readJson<T>(latestKey(type));
    },
    async dated<T>(type: string, date: string) {
      checkType(type);
      checkDate(date);
      return readJson<T>(`${type}:${date}.json`);
    },
    async dates(type: string) {
      checkType(type);
      const keys = await storage.getKeys(type);
      const prefix = `${type}:`;
      return keys
        .filter((k) => k.startsWith(prefix))
        .map((k) => k.slice(prefix.length))
        .filter((name) => /^\d{4}-\d{2}-\d{2}\.json$/.test(name))
        .map((name) => name.slice(0, 10))
        .sort();
    },
    manifest: readManifest,
    async wouldChange(type, data) {
      checkType(type);
      return (await readText(latestKey(type))) !== stableStringify(data);
    },
    recordSuccess(input) {
      checkType(input.type);
      const text = stableStringify(input.data);
      const iso = input.now.toISOString();
      const date = utcDate(input.now);
      return updateManifest(async (m) => {
        const meta = m.types[input.type] ?? blankMeta(input);
        const changed = (await readText(latestKey(input.type))) !== text;
        if (changed) {
          await storage.setItem(`${input.type}:${date}.json`, text);
          await storage.setItem(latestKey(input.type), text);
          meta.date = date;
          meta.lastChanged = iso;
        }
        Object.assign(meta, {
          type: input.type,
          lastSuccess: iso,
          lastAttempt: iso,
          lastError: null,
          rows: input.rows,
          provenance: input.provenance,
          slaSeconds: input.slaSeconds,
          cadence: input.cadence,
          sources: input.sources ?? [],
        } satisfies Partial<SnapshotMeta>);
        m.types[input.type] = meta;
        return { changed, date: meta.date };
      });
    },
    recordFailure(input) {
      checkType(input.type);
      return updateManifest((m) => {
        const meta = m.types[input.type] ?? blankMeta(input);
        meta.lastAttempt = input.now.toISOString();
        meta.lastError = input.error;
        meta.slaSeconds = input.slaSeconds;
        meta.cadence = input.cadence;
        if (input.sources) meta.sources = input.sources;
        m.types[input.type] = meta;
      });
    },
  };
}
