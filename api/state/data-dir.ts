/**
 * The data folder: the embedded Postgres cluster, its credentials, the receipt key and the snapshots `npm start`'s
 * own pipeline runs write. DATA_DIR names it; unset or blank, it is `.data` in the working folder. Every reader of
 * DATA_DIR goes through here, so they all mean the same folder.
 */

/** The data folder when DATA_DIR names none. */
export const DEFAULT_DATA_DIR = ".data";

/** The data folder `value` (DATA_DIR) names: `.data` when it is unset or blank. */
export function dataDirOf(value: string | undefined): string {
  return value !== undefined && value.trim() !== "" ? value : DEFAULT_DATA_DIR;
}
