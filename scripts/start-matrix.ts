/**
 * The newcomer matrix: a fresh clone of this repository's HEAD, as root and as an unprivileged user, in a folder
 * of mode 0755 and under a home of mode 0700. In each case: `npm ci`, `npm start` (it must listen and answer),
 * a second `npm start` on the same data folder (it must refuse within 5 s, in one line), SIGTERM (nothing may be
 * left running), then `npm test` (green, nothing left running). Prints one line per case.
 *
 *   npm run matrix                       # all four cases (as root; ~6 min per case on 2 cores)
 *   npm run matrix -- --skip-tests       # start and stop only
 *   npm run matrix -- --only root-0700   # one case
 *
 * Needs root (it creates the unprivileged user `agentfeed-matrix` and gives it the clone); run as another user it
 * runs that user's two cases only.
 */
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { chmodSync, chownSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { freePort } from "../api/testing/free-port.ts";
import { markedProcesses, stopMarkedProcesses, TEST_RUN_MARKER } from "../api/testing/leftover-processes.ts";

const REPO = resolve(import.meta.dirname, "..");
const MATRIX_USER = "agentfeed-matrix";

interface Identity {
  name: string;
  uid: number;
  gid: number;
}

interface Case {
  id: string;
  who: Identity;
  folderMode: 0o755 | 0o700;
}

const idOf = (name: string): Identity => ({
  name,
  uid: Number(execFileSync("id", ["-u", name], { encoding: "utf8" }).trim()),
  gid: Number(execFileSync("id", ["-g", name], { encoding: "utf8" }).trim()),
});

/** The unprivileged user of the matrix, created when missing. */
function matrixUser(): Identity {
  if (spawnSync("id", ["-u", MATRIX_USER]).status !== 0) {
    execFileSync("useradd", ["--create-home", "--shell", "/bin/bash", MATRIX_USER]);
  }
  return idOf(MATRIX_USER);
}

/** A clone of HEAD for `who`, inside a folder of `mode` (the "home"), owned by `who`. */
function prepareClone(testCase: Case): { home: string; clone: string } {
  const home = mkdtempSync(join(tmpdir(), `agentfeed-matrix-${testCase.id}-`));
  chmodSync(home, testCase.folderMode);
  const clone = join(home, "agentfeed");
  execFileSync("git", ["clone", "--quiet", "--no-hardlinks", REPO, clone]);
  if (testCase.who.uid !== process.getuid?.()) chownTree(home, testCase.who.uid, testCase.who.gid);
  return { home, clone };
}

function chownTree(path: string, uid: number, gid: number): void {
  chownSync(path, uid, gid);
  if (!statSync(path).isDirectory()) return;
  for (const entry of readdirSync(path)) chownTree(join(path, entry), uid, gid);
}

/** Environment for commands run as `who` in `home`. */
function envFor(who: Identity, home: string, marker: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const cache = join(home, ".npm-cache");
  mkdirSync(cache, { recursive: true });
  chownSync(cache, who.uid, who.gid);
  return {
    PATH: process.env.PATH,
    HOME: home,
    LANG: "C.UTF-8",
    npm_config_cache: cache,
    npm_config_update_notifier: "false",
    [TEST_RUN_MARKER]: marker,
    ...extra,
  };
}

/** Run a command to its end; resolves with exit code, output tail and seconds. */
function run(command: string, args: string[], options: { cwd: string; who: Identity; env: NodeJS.ProcessEnv }) {
  const started = Date.now();
  return new Promise<{ code: number | null; tail: string; seconds: number }>((done) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, uid: options.who.uid, gid: options.who.gid, stdio: ["ignore", "pipe", "pipe"] });
    let tail = "";
    const keep = (chunk: Buffer) => {
      tail = (tail + chunk.toString()).slice(-4_000);
    };
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
    child.once("close", (code) => done({ code, tail, seconds: (Date.now() - started) / 1000 }));
  });
}

/** `npm start` until it listens (or exits); the caller stops it. */
function start(options: { cwd: string; who: Identity; env: NodeJS.ProcessEnv }) {
  const started = Date.now();
  const child = spawn("npm", ["start"], { cwd: options.cwd, env: options.env, uid: options.who.uid, gid: options.who.gid, stdio: ["ignore", "pipe", "pipe"], detached: true });
  let out = "";
  const listening = new Promise<{ ok: boolean; seconds: number; output: string }>((done) => {
    const timer = setTimeout(() => done({ ok: false, seconds: (Date.now() - started) / 1000, output: out }), 180_000);
    const look = (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes("agentfeed listening on")) {
        clearTimeout(timer);
        done({ ok: true, seconds: (Date.now() - started) / 1000, output: out });
      }
    };
    child.stdout.on("data", look);
    child.stderr.on("data", look);
    child.once("close", () => {
      clearTimeout(timer);
      done({ ok: false, seconds: (Date.now() - started) / 1000, output: out });
    });
  });
  const exited = new Promise<void>((done) => child.once("close", () => done()));
  const stop = async (signal: NodeJS.Signals = "SIGTERM") => {
    if (child.exitCode === null && child.signalCode === null && child.pid) process.kill(-child.pid, signal);
    await exited;
  };
  return { listening, stop, output: () => out };
}

const lastLine = (text: string): string =>
  text
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith("npm warn") && !line.startsWith(">"))
    .at(-1) ?? "";

/** One case of the matrix, as one line. */
async function runCase(testCase: Case, skipTests: boolean): Promise<string> {
  const { home, clone } = prepareClone(testCase);
  const marker = `matrix-${testCase.id}-${process.pid}`;
  const label = `${testCase.who.name === "root" ? "root" : "user"} ${testCase.folderMode.toString(8).padStart(4, "0")}`;
  const parts: string[] = [];
  let ok = true;
  try {
    const ci = await run("npm", ["ci", "--no-audit", "--no-fund"], { cwd: clone, who: testCase.who, env: envFor(testCase.who, home, marker) });
    if (ci.code !== 0) return `${label}  FAIL  npm ci exited ${ci.code}: ${lastLine(ci.tail)}`;

    const port = await freePort();
    const server = start({ cwd: clone, who: testCase.who, env: envFor(testCase.who, home, marker, { PORT: String(port) }) });
    const up = await server.listening;
    if (!up.ok) {
      await server.stop("SIGKILL");
      stopMarkedProcesses(marker);
      return `${label}  FAIL  npm start did not listen: ${lastLine(up.output)}`;
    }
    const health = await fetch(`http://127.0.0.1:${port}/api/status/summary`).then((res) => res.status, () => 0);
    parts.push(`start ok in ${up.seconds.toFixed(1)} s (status summary ${health})`);
    ok &&= health === 200;

    // A second server on the same data folder must refuse at once, in one line.
    const secondPort = await freePort();
    const second = await run("npm", ["start", "--silent"], { cwd: clone, who: testCase.who, env: envFor(testCase.who, home, marker, { PORT: String(secondPort) }) });
    const refusal = lastLine(second.tail);
    const refused = second.code !== 0 && refusal.includes("is in use");
    // The 5 s promise covers the whole `npm start`, npm and tsx start-up included.
    parts.push(`second start ${refused ? "refused" : `NOT refused (${refusal.slice(0, 160)})`} in ${second.seconds.toFixed(1)} s`);
    ok &&= refused && second.seconds <= 5;

    await server.stop("SIGTERM");
    await new Promise((done) => setTimeout(done, 1_000));
    const leftAfterStart = markedProcesses(marker);
    stopMarkedProcesses(marker);
    parts.push(leftAfterStart.length === 0 ? "stop left nothing" : `stop LEFT ${leftAfterStart.map((p) => p.command.split(" ")[0]).join(", ")}`);
    ok &&= leftAfterStart.length === 0;

    if (!skipTests) {
      const test = await run("npm", ["test"], { cwd: clone, who: testCase.who, env: envFor(testCase.who, home, marker, { CI: "true" }) });
      const summary = /Tests\s+(.*)/.exec(test.tail.replace(/\x1b\[[0-9;]*m/g, ""))?.[1]?.trim() ?? lastLine(test.tail);
      const leftAfterTests = markedProcesses(marker);
      stopMarkedProcesses(marker);
      parts.push(`npm test ${test.code === 0 ? "green" : `RED (exit ${test.code})`} in ${Math.round(test.seconds)} s: ${summary}`);
      parts.push(leftAfterTests.length === 0 ? "tests left nothing" : `tests LEFT ${leftAfterTests.length}`);
      ok &&= test.code === 0 && leftAfterTests.length === 0;
    }
    return `${label}  ${ok ? "PASS" : "FAIL"}  ${parts.join("; ")}`;
  } finally {
    stopMarkedProcesses(marker);
    rmSync(home, { recursive: true, force: true });
  }
}

/** Run the matrix and print one line per case; exits 1 when a case fails. */
export async function main(argv = process.argv.slice(2)): Promise<void> {
  const skipTests = argv.includes("--skip-tests");
  const only = argv.includes("--only") ? argv[argv.indexOf("--only") + 1] : undefined;
  const me = idOf(execFileSync("id", ["-un"], { encoding: "utf8" }).trim());
  // The unprivileged user is created only when one of its cases is to run (`--only root-…` needs none).
  const wantsUser = me.uid === 0 && (!only || only.startsWith("user-"));
  const people: Identity[] = wantsUser ? [me, matrixUser()] : [me];
  const cases: Case[] = people.flatMap((who) =>
    ([0o755, 0o700] as const).map((folderMode) => ({ id: `${who.uid === 0 ? "root" : "user"}-${folderMode.toString(8).padStart(4, "0")}`, who, folderMode })),
  );
  let failed = 0;
  for (const testCase of cases.filter((c) => !only || c.id === only)) {
    const line = await runCase(testCase, skipTests);
    if (!line.includes("  PASS  ")) failed++;
    process.stdout.write(`${line}\n`);
  }
  if (me.uid !== 0) process.stdout.write("(not root: the root cases and the unprivileged-user cases of others were not run)\n");
  process.exitCode = failed > 0 ? 1 : 0;
}

await main();
