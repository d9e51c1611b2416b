/** How a feed failure is written to the manifest and the summary: error name, machine code, message. */

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
