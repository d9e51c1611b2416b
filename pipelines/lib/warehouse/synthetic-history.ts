/**
 * A synthetic git history of a snapshots folder, for measuring `--from-git`: one commit per UTC day, built
 * from given snapshot bodies with small daily changes (a status that moves between providers, probe samples
 * dated that day). Written with `git fast-import`, so a year takes seconds. Labelled synthetic in every
 * commit message; never served as data.
 */
import { spawn, execFile } from "node:child_process";
import { promisify } from "node:util";
import { stableStringify } from "../store/stable-stringify.ts";

const run = promisify(execFile);

export interface SyntheticHistoryOptions {
  /** First UTC day, YYYY-MM-DD. */
  start: string;
  days: number;
  /** Snapshot type → body (as in `<type>/latest.json`). */
  bodies: Record<string, unknown>;
}

interface StatusLike {
  services: { status: string }[];
}
interface ProbeLike {
  providers: { samples: { ts: string }[] }[];
}

/** Create a git repository at `repo` whose `snapshots/` folder has one commit per day; returns that folder. */
export async function writeSyntheticHistory(repo: string, options: SyntheticHistoryOptions): Promise<string> {
  await run("git", ["init", "-q", "-b", "main", repo]);
  const chunks: Buffer[] = [];
  const data = (text: string) => {
    const bytes = Buffer.from(text, "utf8");
    chunks.push(Buffer.from(`data ${bytes.length}\n`), bytes, Buffer.from("\n"));
  };
  const previous = new Map<string, string>();
  const startMs = Date.parse(`${options.start}T00:00:00Z`);
  for (let d = 0; d < options.days; d++) {
    const date = new Date(startMs + d * 86_400_000).toISOString().slice(0, 10);
    const at = `${date}T12:00:00.000Z`;
    chunks.push(Buffer.from(`commit refs/heads/main\nmark :${d + 1}\ncommitter bench <bench@example.test> ${Date.parse(at) / 1000 + 300} +0000\n`));
    data(`synthetic snapshots ${date}`);
    if (d > 0) chunks.push(Buffer.from(`from :${d}\n`));
    const types: Record<string, unknown> = {};
    for (const [type, body] of Object.entries(options.bodies)) {
      const text = stableStringify(vary(type, body, date, d));
      const file = (path: string) => {
        chunks.push(Buffer.from(`M 100644 inline snapshots/${path}\n`));
        data(text);
      };
      if (previous.get(type) !== text) {
        file(`${type}/${date}.json`);
        file(`${type}/latest.json`);
        previous.set(type, text);
      }
      types[type] = { type, date, lastSuccess: at, lastAttempt: at, lastChanged: at, lastError: null, rows: 1, provenance: "replay", slaSeconds: 86_400, cadence: "daily", sources: [] };
    }
    chunks.push(Buffer.from(`M 100644 inline snapshots/manifest.json\n`));
    data(stableStringify({ version: 1, types }));
  }
  await new Promise<void>((resolve, reject) => {
    const child = spawn("git", ["-C", repo, "fast-import", "--quiet"], { stdio: ["pipe", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (c: Buffer) => void (stderr += c.toString("utf8")));
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve() : reject(new Error(`git fast-import exited with ${code}: ${stderr.trim()}`))));
    child.stdin.end(Buffer.concat(chunks));
  });
  await run("git", ["-C", repo, "reset", "-q", "--hard", "main"]);
  return `${repo}/snapshots`;
}

/** The body of `type` on day number `d`: status and probe change daily, the rest stay as given. */
function vary(type: string, body: unknown, date: string, d: number): unknown {
  if (type === "status") {
    const s = body as StatusLike;
    return { ...s, services: s.services.map((svc, i) => ({ ...svc, status: i === d % s.services.length ? "degraded" : "operational" })) };
  }
  if (type === "probe") {
    const p = body as ProbeLike;
    return { ...p, providers: p.providers.map((pr) => ({ ...pr, samples: pr.samples.map((s) => ({ ...s, ts: `${date}${s.ts.slice(10)}` })) })) };
  }
  return body;
}
