/**
 * An unstorage driver for local files whose writes are atomic: the bytes go to a temp file in the same
 * folder, are fsynced, then renamed over the target. A reader (the API server, a git commit) never sees a
 * half-written snapshot. Reads, listing and removal are unstorage's own fs-lite driver.
 */
import { randomBytes } from "node:crypto";
import { mkdir, open, rename, rm } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import type { Driver } from "unstorage";
import fsLite from "unstorage/drivers/fs-lite";

export interface AtomicFsOptions {
  /** Root folder; keys `a:b.json` map to `<base>/a/b.json`. */
  base: string;
}

/** Write `data` to `path` atomically (temp file in the same folder, fsync, rename). */
export async function writeFileAtomic(path: string, data: string | Uint8Array): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
  const handle = await open(tmp, "w");
  try {
    await handle.writeFile(data);
    await handle.sync();
  } catch (error) {
    await handle.close();
    await rm(tmp, { force: true });
    throw error;
  }
  await handle.close();
  try {
    await rename(tmp, path);
  } catch (error) {
    await rm(tmp, { force: true });
    throw error;
  }
}

/** Create the driver rooted at `options.base`. */
export function atomicFsDriver(options: AtomicFsOptions): Driver {
  const base = resolve(options.base);
  const inner = fsLite({ base });
  const pathOf = (key: string): string => {
    if (/(^|:)\.\.(:|$)/.test(key)) throw new Error(`atomic-fs: invalid key ${JSON.stringify(key)}: ".." segments are not allowed`);
    return join(base, key.replace(/:/g, "/"));
  };
  return {
    ...inner,
    name: "atomic-fs",
    options: { base },
    setItem: (key, value) => writeFileAtomic(pathOf(key), value),
    setItemRaw: (key, value: string | Uint8Array) => writeFileAtomic(pathOf(key), value),
  };
}
