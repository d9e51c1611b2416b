/**
 * Read a fetch response body as text while counting bytes, aborting once it passes a cap.
 */
import { TextDecoder } from "node:util";

/** Thrown by `readCappedText` when the body passes the cap; the caller maps it to `too_large`. */
export class BodyTooLargeError extends Error {
  override readonly name = "BodyTooLargeError";
  constructor(readonly maxBytes: number, readonly seenBytes: number) {
    super(`body exceeds ${maxBytes} bytes (read ${seenBytes} so far)`);
  }
}

/**
 * Stream `response.body` into a string (decoded with the charset of `contentType`, else UTF-8); past
 * `maxBytes` cancel the stream, call `abort` and throw BodyTooLargeError.
 */
export async function readCappedText(
  response: Response,
  maxBytes: number,
  abort: () => void,
): Promise<string> {
  const declared = Number(response.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > maxBytes) {
    abort();
    await response.body?.cancel().catch(() => undefined);
    throw new BodyTooLargeError(maxBytes, declared);
  }
  const decoder = decoderFor(response.headers.get("content-type"));
  if (!response.body) return "";
  const reader = response.body.getReader();
  let seen = 0;
  let text = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    seen += value.byteLength;
    if (seen > maxBytes) {
      abort();
      await reader.cancel().catch(() => undefined);
      throw new BodyTooLargeError(maxBytes, seen);
    }
    text += decoder.decode(value, { stream: true });
  }
  return text + decoder.decode();
}

function decoderFor(contentType: string | null): TextDecoder {
  const charset = /charset\s*=\s*"?([^";\s]+)/i.exec(contentType ?? "")?.[1];
  if (charset) {
    try {
      return new TextDecoder(charset);
    } catch {
      // An unknown label: fall back to UTF-8, the web's default.
    }
  }
  return new TextDecoder("utf-8");
}
