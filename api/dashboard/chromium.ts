/**
 * Where the Debian-packaged Chromium is (the dashboard's browser test and `npm run bench:dashboard` drive it with
 * playwright-core; no browser is downloaded): CHROMIUM_PATH, else the first of the usual paths that exists.
 */
import { existsSync } from "node:fs";

const CANDIDATES = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"];

/** The Chromium executable, or null when none is installed. */
export function chromiumPath(): string | null {
  const given = process.env.CHROMIUM_PATH;
  if (given) return existsSync(given) ? given : null;
  return CANDIDATES.find((p) => existsSync(p)) ?? null;
}

/** Flags for a headless run as root in a container (no user namespace sandbox there). */
export const CHROMIUM_ARGS = ["--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"];
