/**
 * DATABASE_URL as the operator wrote it: checked before any connection, and described in messages without its
 * password. A bad value names the variable and what is wrong with it; a failure to connect says so (it is not
 * reported as a failed migration); echoed values are cut to 200 characters.
 */
import { clip } from "../http/clip.ts";
import { isConnectionError } from "./unavailable.ts";

/** DATABASE_URL cannot be used as given. */
export class DatabaseUrlError extends Error {
  override name = "DatabaseUrlError";
}

/** The URL with its password replaced by `***`; input that is not a postgres URL keeps nothing before its last `@`. */
export function redactDatabaseUrl(value: string): string {
  try {
    const url = new URL(value);
    if (url.protocol === "postgres:" || url.protocol === "postgresql:") {
      if (url.password) url.password = "***";
      return clip(url.toString());
    }
  } catch {
    /* not a URL: handled below */
  }
  const at = value.lastIndexOf("@");
  if (at < 0) return clip(value);
  const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(value)?.[0] ?? "";
  return clip(`${scheme}***${value.slice(at)}`);
}

/** Throw a DatabaseUrlError naming DATABASE_URL and the problem, unless `value` is a usable postgres URL. */
export function checkDatabaseUrl(value: string): void {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new DatabaseUrlError(`DATABASE_URL is not a URL (expected postgres://user:password@host:5432/database, got ${JSON.stringify(redactDatabaseUrl(value))})`);
  }
  if (url.protocol !== "postgres:" && url.protocol !== "postgresql:") {
    throw new DatabaseUrlError(`DATABASE_URL must start with postgres:// or postgresql://, got ${JSON.stringify(clip(url.protocol, 40))} in ${JSON.stringify(redactDatabaseUrl(value))}`);
  }
  if (!url.hostname && !url.searchParams.get("host")) {
    throw new DatabaseUrlError(`DATABASE_URL names no host: ${JSON.stringify(redactDatabaseUrl(value))}`);
  }
  if (url.port && (!/^\d+$/.test(url.port) || Number(url.port) < 1 || Number(url.port) > 65535)) {
    throw new DatabaseUrlError(`DATABASE_URL has an invalid port ${JSON.stringify(url.port)}`);
  }
}

/** The start-up message for a failure to open the state database, password-free. */
export function describeOpenFailure(error: unknown, databaseUrl: string | undefined): string {
  const where = databaseUrl ? `the Postgres server in DATABASE_URL (${redactDatabaseUrl(databaseUrl)})` : "the embedded Postgres";
  const raw = error instanceof Error ? error.message : String(error);
  const clean = clip(databaseUrl ? raw.split(databaseUrl).join(redactDatabaseUrl(databaseUrl)) : raw, 300).replace(/(postgres(?:ql)?:\/\/[^:@/\s]*):[^@\s]*@/gi, "$1:***@");
  if (isConnectionError(error)) return `cannot connect to ${where}: ${clean}`;
  return `cannot open ${where}: ${clean}`;
}
