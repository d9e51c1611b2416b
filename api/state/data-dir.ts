/**
 * The data folder: the embedded Postgres cluster, its credentials, the receipt key and the snapshots `npm start`'s
 * own pipeline runs write. DATA_DIR names it; unset or blank, it is `.data` in the working folder. Every reader of
 * DATA_DIR goes through here, so they all mean the same folder.
 */
import { mkdir, stat } from "node:fs/promises";
import { dirname, resolve } from "node:path";

/** The data folder when DATA_DIR names none. */
export const DEFAULT_DATA_DIR = ".data";

/** The data folder `value` (DATA_DIR) names: `.data` when it is unset or blank. */
export function dataDirOf(value: string | undefined): string {
  return value !== undefined && value.trim() !== "" ? value : DEFAULT_DATA_DIR;
}

/** What to do about a folder that cannot be written, by the error code the file system gave. */
export function folderRemedy(code: string | undefined): string {
  switch (code) {
    case "ENOSPC":
    case "EDQUOT":
      return "free some space on its disk, or point DATA_DIR at another disk";
    case "EROFS":
      return "its file system is mounted read-only; point DATA_DIR at a writable folder";
    case "EACCES":
    case "EPERM":
      return "give this user write access to it, or point DATA_DIR at a folder this user owns";
    case "ENOTDIR":
    case "EEXIST":
      return "a file stands where a folder is needed; move it away, or point DATA_DIR elsewhere";
    default:
      return "point DATA_DIR at a writable folder";
  }
}

/**
 * Create the data folder (mode 0700, parents as needed). A failure names the real cause: a recursive mkdir says
 * ENOENT for a parent it could not create (on a read-only file system, say), so the first missing parent is
 * created alone to learn why.
 */
export async function makeDataDir(dir: string): Promise<void> {
  try {
    await mkdir(dir, { recursive: true, mode: 0o700 });
  } catch (error) {
    const cause = (await firstMissingParentError(resolve(dir))) ?? (error as NodeJS.ErrnoException);
    throw new Error(`DATA_DIR ${dir} cannot be used as the data folder: ${cause.message}; ${folderRemedy(cause.code)}`, { cause });
  }
}

/** The error of creating the first missing folder on the way to `dir` alone, or undefined when that works or none is missing. */
async function firstMissingParentError(dir: string): Promise<NodeJS.ErrnoException | undefined> {
  let missing = dir;
  for (let parent = dirname(missing); parent !== missing && !(await exists(parent)); parent = dirname(parent)) missing = parent;
  try {
    await mkdir(missing, { mode: 0o700 });
    return undefined;
  } catch (error) {
    return error as NodeJS.ErrnoException;
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}
