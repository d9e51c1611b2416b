/**
 * As whom the embedded PostgreSQL runs. PostgreSQL refuses to run as root, and the usual answer (a separate
 * `postgres` user) fails when the clone or the data folder sits under a home of mode 0700 that this user
 * cannot enter. So:
 *
 * - not root: the binaries run as the current user, as they are.
 * - root: the binaries run in a user namespace of their own (`unshare --user`) where root's uid is mapped to
 *   the unprivileged `nobody`. Inside, PostgreSQL sees a non-root user that owns root's files, so it can read
 *   the binaries and write the cluster wherever root can, with no capability in the outer namespace; on disk
 *   the cluster stays owned by root, in the data folder the operator chose.
 * - root where user namespaces are off (a container's default seccomp profile, a sysctl): the binaries run as
 *   the unprivileged `postgres` system user (created when missing), which works when every folder on the way
 *   to the binaries and to the data folder lets others through; otherwise start fails at once, saying why.
 */
import { spawnSync } from "node:child_process";
import { chmod, chown, lstat, readdir, readFile, stat } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";

/** How the binaries are run. */
export type PostgresIdentityKind = "self" | "namespace" | "system-user";

/** One way of running the PostgreSQL binaries. */
export interface PostgresIdentity {
  readonly kind: PostgresIdentityKind;
  /** For the start line, e.g. "as root through a user namespace (uid 0 mapped to nobody)". */
  readonly description: string;
  /** The command to spawn for `binary args` and the uid/gid to spawn it with (system-user only). */
  command(binary: string, args: readonly string[]): { file: string; args: string[]; uid?: number; gid?: number };
  /** Make the cluster folder (and, for a system user, the data folder) usable by this identity. */
  prepare(dataDir: string, clusterDir: string): Promise<void>;
}

/** The database cannot run as any identity available here. */
export class PostgresIdentityError extends Error {
  override name = "PostgresIdentityError";
}

const isRoot = (): boolean => process.getuid?.() === 0;

/** uid and gid of a user named in /etc/passwd, or undefined. */
async function passwdEntry(name: string): Promise<{ uid: number; gid: number } | undefined> {
  const passwd = await readFile("/etc/passwd", "utf8").catch(() => "");
  for (const line of passwd.split("\n")) {
    const [user, , uid, gid] = line.split(":");
    if (user === name && uid !== undefined && gid !== undefined) return { uid: Number(uid), gid: Number(gid) };
  }
  return undefined;
}

/** Whether `unshare --user` can map root to `uid`/`gid` here; the reason when it cannot. */
function probeNamespace(uid: number, gid: number): { ok: true } | { ok: false; reason: string } {
  const result = spawnSync("unshare", ["--user", `--map-user=${uid}`, `--map-group=${gid}`, "--", "true"], {
    encoding: "utf8",
    timeout: 5_000,
  });
  if (result.status === 0) return { ok: true };
  const reason = result.error ? result.error.message : (result.stderr || `exit ${result.status}`).trim();
  return { ok: false, reason: reason.slice(0, 200) };
}

/** Give every file of `dir` to `uid`:`gid` (a cluster written under another identity). */
async function chownTree(dir: string, uid: number, gid: number): Promise<void> {
  await chown(dir, uid, gid);
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) await chownTree(path, uid, gid);
    else await chown(path, uid, gid).catch(() => undefined); // a dangling link is left as it is
  }
}

/** Hand a cluster folder to `uid` when another user owns it. */
async function ownCluster(clusterDir: string, uid: number, gid: number): Promise<void> {
  const info = await lstat(clusterDir).catch(() => undefined);
  if (info && info.uid !== uid) await chownTree(clusterDir, uid, gid);
}

/** The first folder on the way to `path` that `uid`/`gid` may not pass through, or undefined. */
export async function blockedFolder(path: string, uid: number, gid: number): Promise<{ dir: string; mode: number } | undefined> {
  let dir = resolve(path);
  const chain: string[] = [];
  for (;;) {
    chain.unshift(dir);
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  for (const folder of chain) {
    const info = await stat(folder).catch(() => undefined);
    if (!info) return undefined; // not created yet: its parent decided
    const mode = info.mode & 0o777;
    const bit = info.uid === uid ? 0o100 : info.gid === gid ? 0o010 : 0o001;
    if ((mode & bit) === 0) return { dir: folder, mode };
  }
  return undefined;
}

const selfIdentity: PostgresIdentity = {
  kind: "self",
  description: "as the current user",
  command: (binary, args) => ({ file: binary, args: [...args] }),
  prepare: async () => undefined,
};

function namespaceIdentity(uid: number, gid: number): PostgresIdentity {
  return {
    kind: "namespace",
    description: `as root through a user namespace (root mapped to uid ${uid})`,
    command: (binary, args) => ({
      file: "unshare",
      args: ["--user", `--map-user=${uid}`, `--map-group=${gid}`, "--", binary, ...args],
    }),
    // Inside the namespace root's files belong to the mapped user: the cluster must be root's on disk.
    prepare: async (_dataDir, clusterDir) => ownCluster(clusterDir, 0, 0),
  };
}

async function systemUserIdentity(binariesRoot: string, dataDir: string, why: string): Promise<PostgresIdentity> {
  let user = await passwdEntry("postgres");
  if (!user) {
    const created = spawnSync("useradd", ["--system", "--user-group", "--no-create-home", "--shell", "/usr/sbin/nologin", "postgres"], {
      encoding: "utf8",
      timeout: 10_000,
    });
    user = await passwdEntry("postgres");
    if (!user) {
      throw new PostgresIdentityError(
        `embedded postgres: as root the database needs an unprivileged user, but user namespaces are unavailable (${why}) and creating the user postgres failed (${(created.stderr || created.error?.message || "").trim().slice(0, 200)}); run as a regular user or set DATABASE_URL`,
      );
    }
  }
  const { uid, gid } = user;
  // The data folder itself is opened to others below (search only); everything above it must already be.
  for (const target of [binariesRoot, dirname(resolve(dataDir))]) {
    const blocked = await blockedFolder(target, uid, gid);
    if (blocked) {
      throw new PostgresIdentityError(
        `embedded postgres: as root the database runs as the user postgres (user namespaces are unavailable here: ${why}), which cannot enter ${blocked.dir} (mode ${blocked.mode.toString(8).padStart(4, "0")}) on the way to ${target}; clone into a folder others can traverse, run as a regular user, or set DATABASE_URL to a Postgres server`,
      );
    }
  }
  return {
    kind: "system-user",
    description: `as root through the system user postgres (uid ${uid}; user namespaces unavailable: ${why})`,
    command: (binary, args) => ({ file: binary, args: [...args], uid, gid }),
    prepare: async (dir, clusterDir) => {
      const mode = (await stat(dir)).mode & 0o777;
      if ((mode & 0o001) === 0) await chmod(dir, mode | 0o011);
      await ownCluster(clusterDir, uid, gid);
    },
  };
}

/** Options for {@link choosePostgresIdentity}. */
export interface IdentityOptions {
  /** Folder of the binaries (bin/, lib/, share/). */
  binariesRoot: string;
  /** The data folder (the cluster lives in `<dataDir>/pg`). */
  dataDir: string;
  /** Force a way as root (tests): `namespace` or `system-user`. Default: namespace when available. */
  prefer?: "namespace" | "system-user";
}

/** Decide how to run the binaries here (see the module comment). */
export async function choosePostgresIdentity(options: IdentityOptions): Promise<PostgresIdentity> {
  if (!isRoot()) return selfIdentity;
  const nobody = (await passwdEntry("nobody")) ?? { uid: 65534, gid: 65534 };
  if (options.prefer === "system-user") {
    return systemUserIdentity(options.binariesRoot, options.dataDir, "not tried: system user requested");
  }
  const probe = probeNamespace(nobody.uid, nobody.gid);
  if (probe.ok) return namespaceIdentity(nobody.uid, nobody.gid);
  if (options.prefer === "namespace") {
    throw new PostgresIdentityError(`embedded postgres: user namespaces are unavailable here: ${probe.reason}`);
  }
  return systemUserIdentity(options.binariesRoot, options.dataDir, probe.reason);
}
