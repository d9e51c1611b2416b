/**
 * `npm run bench:free`: how close a free request comes to a static file server. Starts the real server
 * (`tsx api/server.ts --no-schedule`, RATE_LIMIT_PER_MINUTE=0) on the bundled snapshots and a bare node:http
 * server answering the same bytes, runs autocannon against every free snapshot endpoint (bare and with
 * parameters, see defaultPaths) on both, A B A B per path, prints req/s, p50/p99 latency (medians of the
 * rounds), the ratio to the bare server (the median of each round's ratio), the worst and the median ratio,
 * and the API process's resident memory, then times a full replay run of all feeds.
 *
 * Besides req/s it reports each server process's CPU time per request (from /proc), which the machine's other
 * load does not move the way it moves req/s.
 *
 * Env: BENCH_DURATION (seconds per run, default 2), BENCH_ROUNDS (A B pairs per path, default 5), BENCH_WARMUP (seconds of
 * unmeasured load on every path, per server, before the first run; default 10), BENCH_CONNECTIONS (default 50), SNAPSHOTS_DIR
 * (default snapshots/), BENCH_PATHS (space-separated list, default defaultPaths()), BENCH_SKIP_REPLAY=1, BENCH_CONTROL=1
 * (measure a second bare server in the API's place: an A/A run that shows how far apart two identical servers
 * come out on this machine, so a ratio of the real run can be read against the bench's own noise).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { get } from "node:http";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import autocannon from "autocannon";
import { routes } from "../api/registry/index.ts";
import { freePort } from "../api/testing/free-port.ts";
import { choosePinning, onServerCpu, pinLoadGenerator } from "./lib/cpu-pinning.ts";
import { median } from "./lib/median.ts";
import { processCpuMs, processMemoryMb } from "./lib/process-stats.ts";

/**
 * Parameterized requests measured besides every route's bare path (each answer computed once per parameter set),
 * the last two rejected with a 400 (a GPU name the render cannot map, a number the query schema refuses).
 */
const WITH_PARAMETERS = [
  "/api/gpu/pricing/cheapest?gpu=H100",
  "/api/today?sections=news,status&limit=2",
  "/api/news?category=research&limit=10",
  "/api/vector-dbs?open_source=true",
  "/api/gpu/pricing/cheapest?gpu=NOPE",
  "/api/news?limit=abc",
];

/**
 * Every free GET route answered from snapshots (render routes of the discovery and free tiers; previews count every call, so they are not static), bare or
 * with its registry example, `/api/history/<latest status date>/status` for the dated route, then
 * WITH_PARAMETERS. Routes that compute per request by design (`handle`: health, live activity, receipt
 * verification, request-time upstream reads) are not static and are left out.
 */
function defaultPaths(snapshotsDir: string): string[] {
  const paths: string[] = [];
  for (const r of routes) {
    if (r.method !== "GET" || !r.render || !["discovery", "free"].includes(r.tier)) continue;
    if (!r.path.includes(":")) {
      paths.push(r.example ?? r.path);
      continue;
    }
    if (r.path === "/api/history/:date/:type") {
      const dates = existsSync(join(snapshotsDir, "status")) ? readdirSync(join(snapshotsDir, "status")).filter((f) => /^\d{4}-\d{2}-\d{2}\.json$/.test(f)).sort() : [];
      const latest = dates.at(-1);
      if (latest) paths.push(`/api/history/${latest.slice(0, 10)}/status`);
    }
  }
  return [...paths, ...WITH_PARAMETERS];
}

/**
 * The headers of every measured request: a client that takes brotli or gzip, and a User-Agent as every agent's
 * request carries one, so the API's per-request work on it (the agent-activity check) is measured too. A browser's
 * is the longest common kind.
 */
const REQUEST_HEADERS = {
  "accept-encoding": "br, gzip",
  "user-agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
};

const ROOT = resolve(new URL("..", import.meta.url).pathname);

/** One autocannon result, reduced. */
interface Row {
  target: string;
  path: string;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  /** The server process's CPU time per answered request (µs): the work, whatever else the machine runs. */
  cpuUs: number | null;
}


function waitForLine(child: ChildProcess, what: string): Promise<void> {
  return new Promise((ok, fail) => {
    let err = "";
    const timer = setTimeout(() => fail(new Error(`${what} did not start in 30 s: ${err}`)), 30_000);
    child.stderr?.on("data", (c: Buffer) => (err += c.toString()));
    child.stdout?.once("data", () => {
      clearTimeout(timer);
      ok();
    });
    child.once("exit", (code) => fail(new Error(`${what} exited with ${code}: ${err}`)));
  });
}



async function cannon(url: string, seconds: number, connections: number, pid: number | undefined): Promise<Omit<Row, "target" | "path">> {
  const cpuBefore = processCpuMs(pid);
  const r = await autocannon({ url, duration: seconds, connections, headers: REQUEST_HEADERS });
  const cpuAfter = processCpuMs(pid);
  const cpuUs = cpuBefore !== null && cpuAfter !== null && r.requests.total > 0 ? ((cpuAfter - cpuBefore) * 1000) / r.requests.total : null;
  return { rps: Math.round(r.requests.average), p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx, cpuUs };
}

/** A bare node:http server answering each path with fixed bytes and headers (run as a child process). */
const BARE_SERVER = `
const http = require("node:http");
const fs = require("node:fs");
const table = JSON.parse(fs.readFileSync(process.argv[1], "utf8"));
for (const v of Object.values(table)) v.body = Buffer.from(v.body, "base64");
http.createServer((req, res) => {
  const hit = table[req.url];
  if (!hit) { res.writeHead(404); return res.end(); }
  res.writeHead(hit.status, hit.headers);
  res.end(hit.body);
}).listen(Number(process.argv[2]), "127.0.0.1", () => process.stdout.write("ready\\n"));
`;

async function timeReplay(): Promise<string> {
  if (!existsSync(join(ROOT, "pipelines/run.ts"))) return "skipped: pipelines/run.ts not present";
  const started = performance.now();
  const child = spawn("npm", ["run", "pipelines", "--silent", "--", "--replay", "pipelines/fixtures", "--dry-run"], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout?.on("data", (c: Buffer) => (out += c.toString()));
  child.stderr?.on("data", (c: Buffer) => (out += c.toString()));
  const code = await new Promise<number | null>((ok) => child.once("exit", ok));
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const tail = out.trim().split("\n").slice(-12).join("\n");
  return `exit ${code} in ${seconds} s\n${tail}`;
}

/** Run the benchmark and print the report. */
export async function main(): Promise<void> {
  const seconds = Number(process.env.BENCH_DURATION ?? 2);
  const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
  const rounds = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 5));
  const warmup = Math.max(0, Number(process.env.BENCH_WARMUP ?? 10));
  const snapshotsDir = resolve(process.env.SNAPSHOTS_DIR ?? join(ROOT, "snapshots"));
  const paths = process.env.BENCH_PATHS ? process.env.BENCH_PATHS.split(/\s+/).filter(Boolean) : defaultPaths(snapshotsDir);
  if (!existsSync(join(snapshotsDir, "manifest.json"))) {
    process.stderr.write(`bench: no manifest.json in ${snapshotsDir}; routes will answer 503 (run the pipelines first)\n`);
  }

  // The load generator (this process) on one CPU, every server on another (scripts/lib/cpu-pinning.ts).
  const pinning = choosePinning();
  pinLoadGenerator(pinning);
  process.stdout.write(pinning ? `load generator on CPU ${pinning.loadCpu}, servers on CPU ${pinning.serverCpu}\n` : "CPUs not pinned\n");
  const bareCommand = (tableFile: string, port: number) => onServerCpu(pinning, process.execPath, ["-e", BARE_SERVER, tableFile, String(port)]);

  const apiPort = await freePort();
  const api = spawn(...onServerCpu(pinning, process.execPath, ["--import", "tsx", "api/server.ts", "--no-schedule"]), {
    cwd: ROOT,
    env: { ...process.env, PORT: String(apiPort), HOST: "127.0.0.1", RATE_LIMIT_PER_MINUTE: "0", SNAPSHOTS_DIR: snapshotsDir },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let bare: ChildProcess | undefined;
  let second: ChildProcess | undefined;
  const work = await mkdtemp(join(tmpdir(), "agentfeed-bench-"));
  try {
    await waitForLine(api, "api server");
    const apiUrl = `http://127.0.0.1:${apiPort}`;
    let measured: { url: string; pid: number | undefined } = { url: apiUrl, pid: api.pid };
    const rssIdle = processMemoryMb(api.pid)?.rss ?? null;

    // The bare server gets exactly the bytes and headers the API sends for the measured requests.
    const table: Record<string, { status: number; headers: Record<string, string>; body: string }> = {};
    for (const p of paths) {
      const res = await new Promise<{ status: number; headers: Record<string, string>; body: Buffer }>((ok, fail) => {
        // A bad path (an invalid URL) rejects here, so the finally below still stops both servers.
        try {
          get(apiUrl + p, { headers: REQUEST_HEADERS }, (r) => {
            const chunks: Buffer[] = [];
            r.on("data", (c: Buffer) => chunks.push(c));
            r.on("end", () => {
              const headers: Record<string, string> = {};
              for (const [k, v] of Object.entries(r.headers)) if (typeof v === "string" && k !== "connection" && k !== "keep-alive" && k !== "date" && k !== "transfer-encoding") headers[k] = v;
              ok({ status: r.statusCode ?? 0, headers, body: Buffer.concat(chunks) });
            });
          }).on("error", fail);
        } catch (err) {
          fail(err);
        }
      });
      table[p] = { status: res.status, headers: res.headers, body: res.body.toString("base64") };
      process.stdout.write(`${p}: ${res.status}, ${res.body.byteLength} bytes ${res.headers["content-encoding"] ?? "identity"}\n`);
    }
    const tableFile = join(work, "table.json");
    await writeFile(tableFile, JSON.stringify(table));
    const barePort = await freePort();
    bare = spawn(...bareCommand(tableFile, barePort), { stdio: ["ignore", "pipe", "pipe"] });
    await waitForLine(bare, "bare server");
    // The control: a second bare server on the same table takes the API's place (the API keeps running, idle,
    // as the bare server does in a real run).
    const control = process.env.BENCH_CONTROL === "1";
    if (control) {
      const controlPort = await freePort();
      second = spawn(...bareCommand(tableFile, controlPort), { stdio: ["ignore", "pipe", "pipe"] });
      await waitForLine(second, "control server");
      measured = { url: `http://127.0.0.1:${controlPort}`, pid: second.pid };
      process.stdout.write("control run: a second bare server is measured in the API's place\n");
    }

    // Warm-up, not measured: every path on both servers, so the first measured path does not pay for the
    // API's just-in-time compilation and its start-up garbage (a path measured 0.75–0.83× first and 0.99–1.06× later).
    for (const [target, base] of warmup > 0 ? ([["api", measured.url], ["bare", `http://127.0.0.1:${barePort}`]] as const) : []) {
      process.stdout.write(`warm-up ${target}: every path, ${warmup} s, ${connections} connections…\n`);
      await autocannon({ url: base, requests: paths.map((path) => ({ method: "GET", path })), duration: warmup, connections, headers: REQUEST_HEADERS });
    }

    const rows: Row[] = [];
    /**
     * Per path: the median over the rounds of the API's ratio to the bare server in that round (req/s, and bare CPU
     * / API CPU per request); null where no round gave one.
     */
    const paired = new Map<string, { rps: number | null; cpu: number | null }>();
    for (const p of paths) {
      // A B A B (then B A B A on the next path). Each round's two runs are neighbours in time, so the machine's
      // slow drifts move both alike; the path's ratio is the median of its rounds' ratios, so one run disturbed
      // by a burst of other load does not decide it.
      const targets = [["api", measured.url, measured.pid], ["bare", `http://127.0.0.1:${barePort}`, bare.pid]] as const;
      const ordered = paths.indexOf(p) % 2 === 0 ? targets : [...targets].reverse();
      const runs: Record<string, Omit<Row, "target" | "path">[]> = { api: [], bare: [] };
      for (let round = 0; round < rounds; round++) {
        for (const [target, base, pid] of ordered) {
          process.stdout.write(`autocannon ${target} ${p} (${seconds} s, ${connections} connections, round ${round + 1})…\n`);
          runs[target]!.push(await cannon(base + p, seconds, connections, pid));
        }
      }
      for (const [target] of ordered) {
        const r = runs[target]!;
        const mid = (f: (x: Omit<Row, "target" | "path">) => number) => Math.round(median(r.map(f)));
        const cpu = r.every((x) => x.cpuUs !== null) ? mid((x) => x.cpuUs!) : null;
        rows.push({ target, path: p, rps: mid((x) => x.rps), p50: mid((x) => x.p50), p99: mid((x) => x.p99), non2xx: r.reduce((sum, x) => sum + x.non2xx, 0), cpuUs: cpu });
      }
      const a = runs.api!;
      const b = runs.bare!;
      const rpsRatios = a.flatMap((x, i) => (b[i]!.rps > 0 ? [x.rps / b[i]!.rps] : []));
      const cpuRatios = a.flatMap((x, i) => (x.cpuUs && b[i]!.cpuUs ? [b[i]!.cpuUs! / x.cpuUs] : []));
      paired.set(p, { rps: rpsRatios.length > 0 ? median(rpsRatios) : null, cpu: cpuRatios.length > 0 ? median(cpuRatios) : null });
    }
    const rssLoaded = processMemoryMb(api.pid)?.rss ?? null;

    const width = Math.max(...rows.map((r) => r.path.length)) + 2;
    process.stdout.write(`\n${"path".padEnd(width)}target   req/s     p50 ms  p99 ms  non-2xx  vs bare  CPU µs/req  CPU bare/api\n`);
    for (const r of rows) {
      const pair = paired.get(r.path);
      const ratio = pair?.rps != null ? pair.rps.toFixed(2) : "-";
      const cpuRatio = pair?.cpu != null ? pair.cpu.toFixed(2) : "-";
      process.stdout.write(
        `${r.path.padEnd(width)}${r.target.padEnd(9)}${String(r.rps).padStart(7)}  ${String(r.p50).padStart(7)} ${String(r.p99).padStart(7)}  ${String(r.non2xx).padStart(7)}  ${(r.target === "api" ? ratio : "").padStart(7)}  ${String(r.cpuUs ?? "-").padStart(10)}  ${r.target === "api" ? cpuRatio.padStart(12) : ""}\n`,
      );
    }
    /** The worst path, the median and how many paths reach 0.90, over the paths' paired ratios of one kind. */
    const summary = (kind: "rps" | "cpu", label: string): string => {
      const ratios = paths.flatMap((p) => {
        const ratio = paired.get(p)?.[kind];
        return ratio != null ? [{ p, ratio }] : [];
      });
      const worst = ratios.sort((x, y) => x.ratio - y.ratio)[0];
      if (!worst) return "";
      return `${label}: ${worst.ratio.toFixed(2)} (${worst.p}); median ${median(ratios.map((r) => r.ratio)).toFixed(2)}; ${ratios.filter((r) => r.ratio >= 0.9).length} of ${ratios.length} paths at ≥ 0.90\n`;
    };
    // CPU per request does not move with the machine's other load the way req/s does: bare CPU / api CPU is the
    // throughput ratio the API would reach on a CPU of its own.
    process.stdout.write(`\n${summary("rps", "worst api/bare ratio")}${summary("cpu", "worst CPU-per-request ratio (bare / api)")}`);
    process.stdout.write(`\nAPI resident memory: ${rssIdle ?? "?"} MB after start, ${rssLoaded ?? "?"} MB after the runs\n`);
  } finally {
    bare?.kill("SIGTERM");
    second?.kill("SIGTERM");
    api.kill("SIGTERM");
    await rm(work, { recursive: true, force: true });
  }

  if (process.env.BENCH_SKIP_REPLAY !== "1") {
    process.stdout.write("\nFull replay of all feeds (npm run pipelines -- --replay pipelines/fixtures --dry-run):\n");
    process.stdout.write(`${await timeReplay()}\n`);
  }
}

await main();
