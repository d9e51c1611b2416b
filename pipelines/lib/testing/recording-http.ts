/**
 * Test helper: an HTTP client that records the URL and headers of every request before passing it to the real
 * client (replay or live), so a feed's test can check what it asked for and how (User-Agent, pacing, no refetch).
 */
import type { HttpClient } from "../types.ts";

/** One recorded request. */
export interface RecordedRequest {
  url: string;
  headers: Record<string, string>;
}

/** `http`, with every request appended to `seen`. */
export function recordingHttp(http: HttpClient, seen: RecordedRequest[]): HttpClient {
  return {
    getText: (url, options) => {
      seen.push({ url, headers: options?.headers ?? {} });
      return http.getText(url, options);
    },
    getJson: (url, options) => {
      seen.push({ url, headers: options?.headers ?? {} });
      return http.getJson(url, options);
    },
  };
}
