/** How a feed failure is written to the manifest and the summary: error name, machine code, message. */
import { sanitize } from "../lib/sanitize.ts";

const MAX_LENGTH = 1000;

/** One line naming what failed, e.g. `HttpError(timeout): GET https://… failed: timed out after 15000 ms`. */
export function describeError(error: unknown): string {
  let text: string;
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    const tag = typeof code === "string" && code ? `${error.name}(${code})` : error.name;
    text = `${tag}: ${error.message}`;
  } else {
    text = `thrown value: ${String(error)}`;
  }
  text = text.replace(/\s+/g, " ").trim();
  return text.length > MAX_LENGTH ? `${text.slice(0, MAX_LENGTH - 1)}…` : text;
}

/**
 * The failure as the manifest keeps it, which /api/health publishes: an error message may quote upstream bytes
 * (a body that is not JSON, a content type), so it goes through the outside-text sanitizer (HTML, invisible
 * characters, injection phrases, length) like any upstream text. The run's summary keeps the plain line.
 */
export function publishedError(message: string): string {
  return sanitize(message, { maxLength: MAX_LENGTH });
}
