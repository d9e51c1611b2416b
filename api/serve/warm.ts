/**
 * Warming after a data change. When the data version (snapshot generation and warehouse version) moves, the
 * first premium call of each route would pay for what every later call shares: checking the new snapshots
 * against their schemas, the per-version reads of the warehouse (api/warehouse/per-version.ts), statements
 * prepared on each connection. The warmer pays it in the background instead: it renders each premium and
 * preview GET route's documented example once, one route at a time, yielding to the event loop between them,
 * and throws the answers away. Renders are pure reads; nothing is billed, counted or cached as an answer.
 */
import type { AnyRoute, RenderContext } from "../registry/types.ts";

/** Options of {@link startWarmer}. */
export interface WarmerOptions {
  routes: readonly AnyRoute[];
  /** A fresh render context (its `dataVersion` says which data it reads). */
  context: () => RenderContext;
  /** How often the data version is compared, in ms (default 1000). */
  intervalMs?: number;
  /** Told of each pass (routes rendered, ms), for tests and logs. */
  onPass?: (pass: { version: string; rendered: number; failed: number; ms: number }) => void;
}

/** The running warmer. */
export interface Warmer {
  /** Resolves when no pass is running. */
  idle(): Promise<void>;
  stop(): void;
}

/** The routes worth warming: premium and preview GETs that render and document an example. */
export function warmableRoutes(routes: readonly AnyRoute[]): AnyRoute[] {
  return routes.filter((r) => (r.tier === "premium" || r.tier === "preview") && r.method === "GET" && r.render && r.example);
}

/** The route input an example URL names, or null when it does not match the route or fails its schemas. */
export function exampleInput(route: AnyRoute, example: string): { query: unknown; params: unknown } | null {
  const url = new URL(example, "http://warm.invalid");
  const names = route.path.split("/");
  const parts = url.pathname.split("/");
  if (names.length !== parts.length) return null;
  const rawParams: Record<string, string> = {};
  for (let i = 0; i < names.length; i++) {
    const name = names[i]!;
    if (name.startsWith(":")) rawParams[name.slice(1)] = decodeURIComponent(parts[i]!);
    else if (name !== parts[i]) return null;
  }
  const params = route.params ? route.params.safeParse(rawParams) : { success: true as const, data: {} };
  const query = route.query ? route.query.safeParse(Object.fromEntries(url.searchParams)) : { success: true as const, data: {} };
  if (!params.success || !query.success) return null;
  return { query: query.data, params: params.data };
}

/** Render every warmable route's example once against `context()`; failures are expected (missing data) and ignored. */
export async function warmOnce(routes: readonly AnyRoute[], context: () => RenderContext, stopped: () => boolean = () => false): Promise<{ rendered: number; failed: number }> {
  let rendered = 0;
  let failed = 0;
  for (const route of warmableRoutes(routes)) {
    if (stopped()) break;
    // One route per turn of the event loop: requests arriving meanwhile are answered between routes.
    await new Promise<void>((resolve) => setImmediate(resolve));
    const input = exampleInput(route, route.example!);
    if (!input) {
      failed++;
      continue;
    }
    try {
      await route.render!(context(), input as never);
      rendered++;
    } catch {
      failed++;
    }
  }
  return { rendered, failed };
}

/** Compare the data version every `intervalMs` and warm once per new version (never two passes at a time). */
export function startWarmer(options: WarmerOptions): Warmer {
  let warmedVersion: string | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;
  const tick = () => {
    if (stopped || running) return;
    const version = options.context().dataVersion ?? "";
    if (version === warmedVersion) return;
    warmedVersion = version;
    const started = performance.now();
    running = warmOnce(options.routes, options.context, () => stopped)
      .then(({ rendered, failed }) => options.onPass?.({ version, rendered, failed, ms: Math.round(performance.now() - started) }))
      .finally(() => {
        running = undefined;
      });
  };
  const timer = setInterval(tick, options.intervalMs ?? 1000);
  timer.unref();
  setImmediate(tick);
  return {
    idle: async () => {
      while (running) await running;
    },
    stop: () => {
      stopped = true;
      clearInterval(timer);
    },
  };
}
