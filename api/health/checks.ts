/**
 * The dependency checks behind /api/health: the state database, the chain connection and the receipt signing
 * key. api/server.ts registers them at start (a data-only server registers none: those parts are reported
 * `disabled`); each check is bounded by CHECK_TIMEOUT_MS so a hung dependency makes health say so instead of
 * hanging with it.
 */

/** Outcome of one check. */
export interface CheckResult {
  status: "ok" | "failed" | "disabled";
  detail: string;
  latency_ms: number | null;
}

/** A check: resolves with a short detail when the dependency works, throws when it does not. */
export type Check = () => Promise<string>;

/** The checks a server registers. */
export interface HealthChecks {
  database?: Check;
  chain?: Check;
  signing_key?: Check;
}

/** Longest a check may take before it counts as failed. */
export const CHECK_TIMEOUT_MS = 2000;
const NAMES = ["database", "chain", "signing_key"] as const;

let registered: HealthChecks = {};

/** Register (or clear) this process's checks. */
export function setHealthChecks(checks: HealthChecks): void {
  registered = checks;
}

async function runOne(check: Check | undefined): Promise<CheckResult> {
  if (!check) return { status: "disabled", detail: "not enabled on this instance", latency_ms: null };
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    const detail = await Promise.race([
      check(),
      new Promise<never>((_, fail) => {
        timer = setTimeout(() => fail(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
      }),
    ]);
    return { status: "ok", detail, latency_ms: Math.round(performance.now() - started) };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    return { status: "failed", detail: publicDetail(message), latency_ms: Math.round(performance.now() - started) };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A failure message as /api/health may publish it (the route needs no credential): every URL cut to its scheme
 * and host, since an RPC URL carries its API key in the path or query and a database URL its password (a
 * database's host too is left out); capped at 200 characters.
 */
export function publicDetail(message: string): string {
  const urls = message.replace(/\b([a-z][a-z0-9+.-]*):\/\/[^\s"'<>]*/gi, (url, scheme: string) => {
    if (/^postgres(ql)?$/i.test(scheme)) return "postgres://…";
    try {
      return `${scheme.toLowerCase()}://${new URL(url).host}/…`;
    } catch {
      return `${scheme.toLowerCase()}://…`;
    }
  });
  return urls.slice(0, 200);
}

/** Run every registered check in parallel. */
export async function runHealthChecks(): Promise<Record<(typeof NAMES)[number], CheckResult>> {
  const results = await Promise.all(NAMES.map((name) => runOne(registered[name])));
  return Object.fromEntries(NAMES.map((name, i) => [name, results[i]!])) as Record<(typeof NAMES)[number], CheckResult>;
}
