/**
 * `npm run bench:warehouse-history`: how long `npm run warehouse -- --from-git` takes over one year of daily
 * commits. Builds a synthetic git history (labelled synthetic, in a temp folder, removed afterwards) from the
 * bundled snapshot bodies of every feed that writes warehouse rows, then times a first rebuild and a second,
 * idempotent one. Env: BENCH_DAYS (default 365), SNAPSHOTS_DIR (bodies to start from, default snapshots/).
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { feeds } from "../pipelines/feeds/index.ts";
import type { Feed } from "../pipelines/lib/types.ts";
import { formatSummary } from "../pipelines/lib/warehouse/cli.ts";
import { rebuildFromHistory } from "../pipelines/lib/warehouse/rebuild.ts";
import { writeSyntheticHistory } from "../pipelines/lib/warehouse/synthetic-history.ts";

const days = Number(process.env.BENCH_DAYS ?? 365);
if (!Number.isInteger(days) || days < 1 || days > 3660) throw new Error(`BENCH_DAYS must be an integer 1..3660, got ${process.env.BENCH_DAYS}`);
const source = resolve(process.env.SNAPSHOTS_DIR ?? "snapshots");
const withRows = Object.values(feeds as Record<string, Feed>).filter((f) => f.historyRows !== undefined);
const bodies: Record<string, unknown> = {};
for (const f of withRows) bodies[f.type] = JSON.parse(await readFile(join(source, f.type, "latest.json"), "utf8"));

const repo = await mkdtemp(join(tmpdir(), "af-bench-whgit-"));
try {
  let t = performance.now();
  const dir = await writeSyntheticHistory(repo, { start: "2025-01-01", days, bodies });
  process.stdout.write(`synthetic history: ${days} daily commits of ${Object.keys(bodies).join(", ")} in ${((performance.now() - t) / 1000).toFixed(1)} s (${repo})\n\n`);
  let lastTenth = -1;
  const onProgress = (done: number, total: number) => {
    const tenth = Math.floor((done / total) * 10);
    if (tenth !== lastTenth) process.stderr.write(`  ${done}/${total}\n`);
    lastTenth = tenth;
  };
  t = performance.now();
  const first = await rebuildFromHistory(dir, { feeds, onProgress });
  const firstS = (performance.now() - t) / 1000;
  process.stdout.write(`first --from-git run:\n${formatSummary(first)}`);
  t = performance.now();
  const second = await rebuildFromHistory(dir, { feeds });
  const secondS = (performance.now() - t) / 1000;
  process.stdout.write(`second run (idempotent): ${second.written} written, ${second.unchanged} unchanged\n\n`);
  process.stdout.write(`from-git over ${days} days: first run ${firstS.toFixed(1)} s, second run ${secondS.toFixed(1)} s (target ≤ 60 s for 365 days on 2 cores)\n`);
} finally {
  await rm(repo, { recursive: true, force: true });
}
