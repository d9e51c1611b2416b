/**
 * What `npm start` prints once it listens: where, which data (bundled, replayed or live, and how old the newest
 * snapshot is), where the state lives, and whether payments are real, on a test chain, or off. A pure function
 * of what the server knows, so the lines are tested without starting anything.
 */

/** One snapshot type as the manifest describes it (the fields the banner reads). */
export interface BannerSnapshot {
  type: string;
  lastSuccess: string | null;
  provenance: "live" | "replay";
}

/** Everything the start lines say. */
export interface BannerInput {
  url: string;
  publicBaseUrl: string;
  snapshotsDir: string;
  /** True when snapshotsDir is the folder committed with the project. */
  bundled: boolean;
  /** The server's own snapshots folder (DATA_DIR/snapshots, its scheduler's), when it serves one beside snapshotsDir. */
  localSnapshotsDir?: string;
  snapshots: readonly BannerSnapshot[];
  /** Where the state database lives (Database.where), or undefined when state is off. */
  state: string | undefined;
  /** One line about payments (mode, chain, recipient), already worded. */
  payments: string;
  /** The in-process scheduler runs. */
  scheduler: boolean;
  now: Date;
}

/** "3 min", "5 h", "2 d 4 h". */
export function formatAge(ms: number): string {
  const minutes = Math.max(0, Math.floor(ms / 60_000));
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h`;
  return `${Math.floor(hours / 24)} d ${hours % 24} h`;
}

/** The data line: where the snapshots come from, their provenance and the newest one's age (of the snapshots as served). */
export function describeData(input: Pick<BannerInput, "snapshotsDir" | "bundled" | "localSnapshotsDir" | "snapshots" | "now">): string {
  const { snapshots } = input;
  if (snapshots.length === 0) return `no snapshots in ${input.snapshotsDir} yet: free routes answer 503 until a pipeline run writes them`;
  const live = snapshots.filter((meta) => meta.provenance === "live").length;
  const origin =
    live === 0 ? "replayed from recorded fixtures" : live === snapshots.length ? "live" : `${live} live, ${snapshots.length - live} replayed`;
  const times = snapshots.map((meta) => (meta.lastSuccess ? Date.parse(meta.lastSuccess) : Number.NaN)).filter(Number.isFinite);
  const newest = times.length > 0 ? `, newest ${formatAge(input.now.getTime() - Math.max(...times))} old` : "";
  const where = `${input.bundled ? "bundled snapshots" : "snapshots"} in ${input.snapshotsDir}${input.localSnapshotsDir ? ` and this server's own runs in ${input.localSnapshotsDir}` : ""}`;
  return `${where}: ${snapshots.length} types, ${origin}${newest}`;
}

/** The lines printed at start; the first one is always `agentfeed listening on <url> …`. */
export function startBanner(input: BannerInput): string[] {
  return [
    `agentfeed listening on ${input.url} (public ${input.publicBaseUrl})`,
    `  data:     ${describeData(input)}${input.scheduler ? "; scheduler on" : "; scheduler off"}`,
    `  state:    ${input.state ?? "off (premium and payment routes answer 503)"}`,
    `  payments: ${input.payments}`,
    `  try:      curl -s ${input.publicBaseUrl}/api/status/summary   (every endpoint: ${input.publicBaseUrl}/docs)`,
  ];
}
