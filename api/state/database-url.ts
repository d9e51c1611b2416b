/**
 * DATABASE_URL as the operator wrote it: checked before any connection, and described in messages without its
 * password. A bad value names the variable and what is wrong with it; a failure to connect says so (it is not
 * reported as a failed migration); echoed values are cut to 200 characters.
 */
import { clip } from "../http/clip.ts";
import { isConnectionError } from "./unavailable.ts";
import { EmbeddedPostgresError } from "./startup-failure.ts";

/** DATABASE_URL cannot be used as given. */
export class DatabaseUrlError extends Error {
  override name = "DatabaseUrlError";
}

/**
 * The URL with its password replaced by `***`. The credentials are taken as everything between the scheme and
 * the last `@`, not as a URL parser reads them: a password with an unencoded `@` or `#` would otherwise leave
 * its tail in the host or the fragment, and so in the message. Input without credentials is kept as it is.
 */
export function redactDatabaseUrl(value: string): string {
  const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(value)?.[0] ?? "";
  const at = value.lastIndexOf("@");
  if (at < scheme.length) return clip(value);
  const credentials = value.slice(scheme.length, at);
  const colon = credentials.indexOf(":");
  const user = colon < 0 ? credentials : credentials.slice(0, colon);
  return clip(`${scheme}${colon < 0 ? user : `${user}:***`}${value.slice(at)}`);
}

/** What to do when a password holds a character a URL reserves. */
const ENCODE_HINT = "a password with @ # / ? : or % in it must be percent-encoded (encodeURIComponent), e.g. p%40ss for p@ss";

/** Throw a DatabaseUrlError naming DATABASE_URL and the problem, unless `value` is a usable postgres URL. */
export function checkDatabaseUrl(value: string): void {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new DatabaseUrlError(`DATABASE_URL is not a URL (expected postgres://user:password@host:5432/database, got ${JSON.stringify(redactDatabaseUrl(value))}; ${ENCODE_HINT})`);
  }
  if (url.hash !== "" || value.indexOf("@") !== value.lastIndexOf("@")) {
    throw new DatabaseUrlError(`DATABASE_URL cannot be read as one user, password and host (${JSON.stringify(redactDatabaseUrl(value))}): ${ENCODE_HINT}`);
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
  // The embedded server's own failures already name it, the path and what to do.
  if (error instanceof EmbeddedPostgresError) return clip(error.message, 600);
  const where = databaseUrl ? `the Postgres server in DATABASE_URL (${redactDatabaseUrl(databaseUrl)})` : "the embedded Postgres";
  const raw = error instanceof Error ? error.message : String(error);
  const clean = clip(databaseUrl ? raw.split(databaseUrl).join(redactDatabaseUrl(databaseUrl)) : raw, 300).replace(/(postgres(?:ql)?:\/\/[^:@/\s]*):[^@\s]*@/gi, "$1:***@");
  if (isConnectionError(error)) return `cannot connect to ${where}: ${clean}`;
  return `cannot open ${where}: ${clean}`;
}
