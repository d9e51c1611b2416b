/**
 * A small local HTTP server that answers recorded upstream responses laid out by `replayPathFor`, so replay
 * goes through the same fetch code as live runs. Request: `GET /?u=<encoded original URL>`. When a URL's path
 * is also the folder of longer URLs (`/v1/models` and `/v1/models/a/b/endpoints`), its fixture is that
 * folder's `index` file (with `index.meta.json`), as for a path ending in `/`. A large recording may be stored
 * gzip-compressed beside that path as `<path>.gz`; it is answered decompressed, exactly as recorded.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { readFile, stat } from "node:fs/promises";
import { gunzipSync } from "node:zlib";
import { extname, resolve, sep } from "node:path";
import { bodyDigest, replayPathFor } from "../replay-path.ts";

/** Header the replay server sets when no fixture exists for a URL (so a recorded 404 stays a 404). */
export const REPLAY_MISSING_HEADER = "x-agentfeed-replay-missing";

/** A running replay server. */
export interface ReplayServer {
  /** Base URL, e.g. `http://127.0.0.1:41234`. */
  origin: string;
  /** The local URL that answers for `url` (for a POST, also its JSON body: the fixture is keyed by its digest). */
  urlFor(url: string, jsonBody?: string): string;
  close(): Promise<void>;
}

interface Sidecar {
  status?: number;
  headers?: Record<string, string>;
  /** Wait this long before answering (to record a slow or hanging upstream). */
  delayMs?: number;
}

/** Content type of a fixture: from the URL path's extension, else sniffed from the first non-blank character. */
export function contentTypeFor(url: string, body: Buffer): string {
  const ext = extname(new URL(url).pathname).toLowerCase();
  if (ext === ".json") return "application/json; charset=utf-8";
  if (ext === ".xml" || ext === ".rss" || ext === ".atom") return "application/xml; charset=utf-8";
  const first = body.toString("utf8", 0, Math.min(body.length, 512)).trimStart()[0];
  if (first === "{" || first === "[") return "application/json; charset=utf-8";
  if (first === "<") return "application/xml; charset=utf-8";
  return "text/plain; charset=utf-8";
}

/** Start a replay server for `dir` on 127.0.0.1 with a random free port. */
export async function startReplayServer(dir: string): Promise<ReplayServer> {
  const root = resolve(dir);
  const server = createServer((req, res) => {
    serve(root, req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain; charset=utf-8" });
      res.end(`replay server failed: ${String(error)}`);
    });
  });
  await new Promise<void>((ok, fail) => {
    server.once("error", fail);
    server.listen(0, "127.0.0.1", () => ok());
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    urlFor: (url, jsonBody) => `${origin}/?u=${encodeURIComponent(url)}${jsonBody === undefined ? "" : `&b=${bodyDigest(jsonBody)}`}`,
    close: () =>
      new Promise<void>((ok, fail) => {
        server.close((error) => (error ? fail(error) : ok()));
        server.closeAllConnections();
      }),
  };
}

async function serve(root: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const original = new URL(req.url ?? "/", "http://replay.invalid").searchParams.get("u");
  if (!original || !URL.canParse(original)) {
    res.writeHead(400, { "content-type": "text/plain; charset=utf-8" });
    res.end(`replay request needs ?u=<absolute URL>, got ${JSON.stringify(req.url)}`);
    return;
  }
  const digest = new URL(req.url ?? "/", "http://replay.invalid").searchParams.get("b");
  const path = replayPathFor(original, digest ?? undefined);
  const target = resolve(root, path);
  if (target !== root && !target.startsWith(root + sep)) {
    res.writeHead(400, { "content-type": "text/plain; charset=utf-8" });
    res.end(`replay path escapes the fixture folder: ${path}`);
    return;
  }
  const folder = await isFolder(target);
  const relative = folder ? `${path}/index` : path;
  const file = folder ? resolve(target, "index") : target;
  const [body, sidecar] = await Promise.all([readFixtureBody(file), readSidecar(file)]);
  if (body === undefined && sidecar === undefined) {
    res.writeHead(404, { "content-type": "text/plain; charset=utf-8", [REPLAY_MISSING_HEADER]: relative });
    res.end(`no replay fixture at ${relative}`);
    return;
  }
  const payload = body ?? Buffer.alloc(0);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(sidecar?.headers ?? {})) headers[name.toLowerCase()] = String(value);
  headers["content-type"] ??= contentTypeFor(original, payload);
  // The body is sent as stored; a recorded encoding header would make fetch try to decode it again.
  delete headers["content-encoding"];
  delete headers["transfer-encoding"];
  headers["content-length"] = String(payload.length);
  if (sidecar?.delayMs) {
    await new Promise((ok) => setTimeout(ok, sidecar.delayMs));
    if (req.destroyed) return;
  }
  res.writeHead(sidecar?.status ?? 200, headers);
  res.end(req.method === "HEAD" ? undefined : payload);
}

async function isFolder(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch (error) {
    if (isMissing(error)) return false;
    throw error;
  }
}

async function readOptional(file: string): Promise<Buffer | undefined> {
  try {
    return await readFile(file);
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
}

/** The recorded body at `file`, else its gzip-compressed copy `file.gz` decompressed, else undefined. */
async function readFixtureBody(file: string): Promise<Buffer | undefined> {
  const plain = await readOptional(file);
  if (plain !== undefined) return plain;
  const packed = await readOptional(`${file}.gz`);
  return packed === undefined ? undefined : gunzipSync(packed);
}

async function readSidecar(file: string): Promise<Sidecar | undefined> {
  const raw = await readOptional(`${file}.meta.json`);
  if (raw === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw.toString("utf8"));
  } catch (error) {
    throw new Error(`replay sidecar ${file}.meta.json is not JSON`, { cause: error });
  }
  if (typeof parsed !== "object" || parsed === null) {
    throw new Error(`replay sidecar ${file}.meta.json must be an object, got ${JSON.stringify(parsed)}`);
  }
  const { status, headers, delayMs } = parsed as Sidecar;
  if (delayMs !== undefined && (!Number.isInteger(delayMs) || delayMs < 0 || delayMs > 60_000)) {
    throw new Error(`replay sidecar ${file}.meta.json has an invalid delayMs: ${JSON.stringify(delayMs)}`);
  }
  if (status !== undefined && (!Number.isInteger(status) || status < 100 || status > 599)) {
    throw new Error(`replay sidecar ${file}.meta.json has an invalid status: ${JSON.stringify(status)}`);
  }
  return {
    ...(status === undefined ? {} : { status }),
    ...(headers === undefined ? {} : { headers }),
    ...(delayMs === undefined ? {} : { delayMs }),
  };
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === "ENOENT" || code === "ENOTDIR" || code === "EISDIR";
}
