/**
 * Where past snapshot bodies come from for a warehouse rebuild: the git history of the snapshots folder (the
 * last commit of each UTC day that touched it), or, without git, the dated snapshot files present.
 */
import { execFile, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);
const DATED_RE = /^(\d{4}-\d{2}-\d{2})\.json$/;
/** Largest git output read at once (a day's listing of commits is far below this). */
const MAX_GIT_OUTPUT = 256 * 1024 * 1024;

/** One UTC day of history: the commit that stands for it (git) or just the day (files). */
export interface HistoryDay {
  date: string;
  /** The last commit of that day touching the snapshots folder (git only). */
  commit?: string;
  /** That commit's committer time, ISO 8601 UTC (git only). */
  committedAt?: string;
}

/** Past snapshot files, by day. */
export interface HistorySource {
  kind: "git" | "files";
  /** Every day the history holds, oldest first. */
  days: HistoryDay[];
  /** A file of the snapshots folder (path relative to it) as it was on that day; undefined when absent. */
  readFiles(day: HistoryDay, paths: string[]): Promise<Map<string, string | undefined>>;
  /** Dated files `<type>/<date>.json` present on that day (files: on disk; git: in that commit's tree). */
  hasDated(day: HistoryDay, type: string): Promise<boolean>;
}

/** The git history of `dir` when it is inside a git work tree with commits touching it; otherwise undefined. */
export async function gitHistory(dir: string): Promise<HistorySource | undefined> {
  let top: string;
  let prefix: string;
  try {
    top = (await run("git", ["-C", dir, "rev-parse", "--show-toplevel"])).stdout.trim();
    prefix = (await run("git", ["-C", dir, "rev-parse", "--show-prefix"])).stdout.trim();
  } catch {
    return undefined; // git missing, or not a repository
  }
  let log: string;
  try {
    log = (await run("git", ["-C", top, "log", "--format=%H %ct", "--", prefix === "" ? "." : prefix], { maxBuffer: MAX_GIT_OUTPUT })).stdout;
  } catch {
    return undefined; // a repository without commits
  }
  const byDay = new Map<string, { commit: string; seconds: number }>();
  for (const line of log.split("\n")) {
    const m = /^([0-9a-f]{40,64}) (\d+)$/.exec(line.trim());
    if (!m) continue;
    const seconds = Number(m[2]);
    const date = new Date(seconds * 1000).toISOString().slice(0, 10);
    const best = byDay.get(date);
    // git log lists newest first; on a tie of seconds the first listed (the later commit) wins.
    if (!best || seconds > best.seconds) byDay.set(date, { commit: m[1]!, seconds });
  }
  if (byDay.size === 0) return undefined;
  const days = [...byDay.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([date, c]) => ({ date, commit: c.commit, committedAt: new Date(c.seconds * 1000).toISOString() }));
  const treeCache = new Map<string, Set<string>>();
  const tree = async (commit: string): Promise<Set<string>> => {
    const cached = treeCache.get(commit);
    if (cached) return cached;
    const out = (await run("git", ["-C", top, "ls-tree", "-r", "--name-only", commit, "--", prefix === "" ? "." : prefix], { maxBuffer: MAX_GIT_OUTPUT })).stdout;
    const names = new Set(out.split("\n").filter(Boolean).map((p) => p.slice(prefix.length)));
    treeCache.clear(); // one day at a time: keep only the latest tree
    treeCache.set(commit, names);
    return names;
  };
  return {
    kind: "git",
    days,
    async readFiles(day, paths) {
      // cat-file answers "missing" for a path the commit does not hold, so no tree listing is needed here.
      const blobs = await catFiles(top, paths.map((p) => `${day.commit}:${prefix}${p}`));
      return new Map(paths.map((p) => [p, blobs.get(`${day.commit}:${prefix}${p}`)]));
    },
    async hasDated(day, type) {
      return (await tree(day.commit!)).has(`${type}/${day.date}.json`);
    },
  };
}

/** The dated snapshot files under `dir` for the given types: one day per date any of them has. */
export async function filesHistory(dir: string, types: string[]): Promise<HistorySource> {
  const dated = new Map<string, string[]>();
  for (const type of types) {
    const folder = join(dir, type);
    const dates = existsSync(folder) ? (await readdir(folder)).map((f) => DATED_RE.exec(f)?.[1]).filter((d): d is string => d !== undefined) : [];
    dated.set(type, dates.sort());
  }
  const days = [...new Set([...dated.values()].flat())].sort().map((date) => ({ date }));
  return {
    kind: "files",
    days,
    async readFiles(day, paths) {
      const out = new Map<string, string | undefined>();
      for (const p of paths) {
        // `<type>/latest.json` as of that day is the newest dated file on or before it.
        const m = /^([^/]+)\/latest\.json$/.exec(p);
        const file = m ? newestOnOrBefore(dated.get(m[1]!) ?? [], day.date) : p;
        const path = file === undefined ? undefined : join(dir, m ? `${m[1]}/${file}.json` : file);
        out.set(p, path && existsSync(path) ? await readFile(path, "utf8") : undefined);
      }
      return out;
    },
    async hasDated(day, type) {
      return dated.get(type)?.includes(day.date) ?? false;
    },
  };
}

function newestOnOrBefore(sorted: string[], date: string): string | undefined {
  let found: string | undefined;
  for (const d of sorted) if (d <= date) found = d;
  return found;
}

/** Read blobs named `<commit>:<path>` through one `git cat-file --batch`; a missing one maps to undefined. */
async function catFiles(top: string, specs: string[]): Promise<Map<string, string | undefined>> {
  const out = new Map<string, string | undefined>();
  if (specs.length === 0) return out;
  const child = spawn("git", ["-C", top, "cat-file", "--batch"], { stdio: ["pipe", "pipe", "pipe"] });
  const chunks: Buffer[] = [];
  let stderr = "";
  child.stdout.on("data", (c: Buffer) => chunks.push(c));
  child.stderr.on("data", (c: Buffer) => void (stderr += c.toString("utf8")));
  const done = new Promise<void>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve() : reject(new Error(`git cat-file --batch exited with ${code}: ${stderr.trim()}`))));
  });
  child.stdin.end(specs.join("\n") + "\n");
  await done;
  const buf = Buffer.concat(chunks);
  let at = 0;
  for (const spec of specs) {
    const nl = buf.indexOf(0x0a, at);
    if (nl < 0) throw new Error(`git cat-file --batch: answer for ${spec} is cut short`);
    const header = buf.subarray(at, nl).toString("utf8");
    at = nl + 1;
    const m = /^[0-9a-f]+ (\w+) (\d+)$/.exec(header);
    if (!m) {
      out.set(spec, undefined); // "<spec> missing"
      continue;
    }
    const size = Number(m[2]);
    out.set(spec, m[1] === "blob" ? buf.subarray(at, at + size).toString("utf8") : undefined);
    at += size + 1;
  }
  return out;
}
