import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { bodyDigest, replayPathFor } from "../replay-path.ts";
import { createHttpClient, HttpError, type ClosableHttpClient, type HttpClientOptions } from "./client.ts";
import { contentTypeFor } from "./replay-server.ts";

let dir: string;
let cacheDir: string;
let sleeps: number[];
let http: ClosableHttpClient;

const ITEMS_URL = "https://api.example.com/v1/items?page=2&q=cat:ai";
const BROKEN_URL = "https://status.example.org/api/v2/summary.json";

async function fixture(url: string, body: string | undefined, meta?: object): Promise<void> {
  const file = join(dir, replayPathFor(url));
  await mkdir(dirname(file), { recursive: true });
  if (body !== undefined) await writeFile(file, body);
  if (meta) await writeFile(`${file}.meta.json`, JSON.stringify(meta));
}

function replayClient(options: HttpClientOptions = {}): ClosableHttpClient {
  return createHttpClient({
    replayDir: dir,
    cacheDir,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    ...options,
  });
}

async function failure(promise: Promise<unknown>): Promise<HttpError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(HttpError);
  return error as HttpError;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "agentfeed-replay-"));
  cacheDir = await mkdtemp(join(tmpdir(), "agentfeed-replay-cache-"));
  await fixture(ITEMS_URL, '{"items":[{"id":"it_1","name":"Widget"}],"page":2}\n');
  await fixture(BROKEN_URL, '{"error":"internal"}', { status: 500, headers: { "content-type": "application/json" } });
  await fixture("https://news.example.net/feed", '<?xml version="1.0"?><rss version="2.0"><channel/></rss>');
  await fixture("https://news.example.net/atom.atom", "<feed/>");
  await fixture("https://docs.example.net/page", "<html><body>hi</body></html>", {
    headers: { "Content-Type": "text/html; charset=utf-8", ETag: '"abc"' },
  });
  await fixture("https://api.example.com/limited", undefined, { status: 429, headers: { "retry-after": "1" } });
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
  await rm(cacheDir, { recursive: true, force: true });
});

beforeEach(() => {
  sleeps = [];
  http = replayClient();
});

afterEach(async () => {
  await http.close();
});

describe("createHttpClient({ replayDir })", () => {
  it("a POST is answered from the fixture keyed by its body's digest; another body names its own missing fixture", async () => {
    const url = "https://api.example.com/v1/querybatch";
    const body = '{"queries":[{"package":{"name":"a"}}]}';
    const file = join(dir, replayPathFor(url, bodyDigest(body)));
    expect(file.endsWith(`querybatch#post-${bodyDigest(body)}`)).toBe(true);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, '{"results":[{"vulns":[]}]}');
    const http = replayClient();
    expect((await http.getJson(url, { jsonBody: body })).json).toEqual({ results: [{ vulns: [] }] });
    const other = '{"queries":[]}';
    const error = await failure(http.getJson(url, { jsonBody: other }));
    expect(error.code).toBe("replay_missing");
    expect(error.message).toContain(`POST ${url} failed: no replay fixture at`);
    expect(error.message).toContain(`#post-${bodyDigest(other)}`);
    await http.close();
  });

  it("getJson() answers a query-string URL from its fixture, keeping the original URL", async () => {
    const { json, response } = await http.getJson(ITEMS_URL, { expectContentType: ["application/json"] });
    expect(json).toEqual({ items: [{ id: "it_1", name: "Widget" }], page: 2 });
    expect(response).toMatchObject({ url: ITEMS_URL, status: 200, fromCache: false });
  });

  it("getText() answers a fixture stored gzip-compressed as <path>.gz with the recorded bytes, type sniffed from them", async () => {
    const url = "https://www.sec.example.gov/Archives/doc-20250126.htm";
    const recorded = "<?xml version='1.0' encoding='ASCII'?>\n<html><body><p>Item 1A. Risk Factors</p></body></html>";
    const file = join(dir, replayPathFor(url));
    await mkdir(dirname(file), { recursive: true });
    await writeFile(`${file}.gz`, gzipSync(recorded));
    const answer = await http.getText(url);
    expect(answer.body).toBe(recorded);
    expect(answer.headers.get("content-type")).toBe("application/xml; charset=utf-8");
  });

  it("getText() sniffs XML without an extension and maps .atom to application/xml", async () => {
    const rss = await http.getText("https://news.example.net/feed", { expectContentType: ["xml"] });
    expect(rss.headers.get("content-type")).toBe("application/xml; charset=utf-8");
    expect(rss.body).toContain("<rss");
    const atom = await http.getText("https://news.example.net/atom.atom");
    expect(atom.headers.get("content-type")).toBe("application/xml; charset=utf-8");
  });

  it("getText() takes status and headers from the sidecar: a recorded 500 is retried, then http_status", async () => {
    const error = await failure(http.getText(BROKEN_URL));
    expect(error).toMatchObject({ code: "http_status", status: 500, url: BROKEN_URL });
    expect(error.message).toBe(`GET ${BROKEN_URL} failed: 500 Internal Server Error`);
    expect(sleeps).toHaveLength(2);
  });

  it("getText() applies sidecar headers to the content-type check", async () => {
    const error = await failure(http.getText("https://docs.example.net/page", { expectContentType: ["json"] }));
    expect(error.code).toBe("wrong_content_type");
  });

  it("getText() honours a recorded Retry-After from a body-less sidecar", async () => {
    const error = await failure(replayClient({ retries: 1 }).getText("https://api.example.com/limited"));
    expect(error).toMatchObject({ code: "http_status", status: 429 });
    expect(sleeps).toEqual([1000]);
  });

  it("getText() fails with replay_missing for a URL without a fixture and does not retry", async () => {
    const url = "https://api.example.com/v1/items?page=3";
    const error = await failure(http.getText(url));
    expect(error).toMatchObject({ code: "replay_missing", url });
    expect(error.message).toContain("no replay fixture at api.example.com/v1/items@page=3 in the replay folder");
    expect(error.message).not.toContain(dir);
    expect(sleeps).toEqual([]);
  });

  it("getText() answers a path that is also a folder from the folder's index file and sidecar", async () => {
    const list = "https://api.example.com/v1/models";
    const longer = "https://api.example.com/v1/models/acme/m1/endpoints";
    await mkdir(join(dir, replayPathFor(list)), { recursive: true });
    await writeFile(join(dir, replayPathFor(list), "index"), '{"data":[]}');
    await writeFile(join(dir, replayPathFor(list), "index.meta.json"), JSON.stringify({ headers: { etag: '"v1"' } }));
    await fixture(longer, '{"data":{"endpoints":[]}}');
    const res = await http.getText(list);
    expect(res.body).toBe('{"data":[]}');
    expect(res.headers.get("etag")).toBe('"v1"');
    expect((await http.getJson(longer)).json).toEqual({ data: { endpoints: [] } });
    const missing = await failure(http.getText("https://api.example.com/v1/models/acme"));
    expect(missing.code).toBe("replay_missing");
    expect(missing.message).toContain("no replay fixture at api.example.com/v1/models/acme/index in the replay folder");
  });

  it("getText() keys the circuit breaker on the original host", async () => {
    const client = replayClient({ retries: 0, breakerThreshold: 2 });
    try {
      for (let i = 0; i < 2; i++) expect((await failure(client.getText(BROKEN_URL))).code).toBe("http_status");
      expect((await failure(client.getText(BROKEN_URL))).code).toBe("circuit_open");
      // Same replay server, another upstream host: unaffected.
      expect((await client.getText(ITEMS_URL)).status).toBe(200);
    } finally {
      await client.close();
    }
  });

  it("getText() applies the size cap to replayed bodies", async () => {
    const error = await failure(http.getText(ITEMS_URL, { maxBytes: 10 }));
    expect(error.code).toBe("too_large");
  });

  it("getText() never writes the conditional-request cache in replay mode", async () => {
    await http.getText("https://docs.example.net/page");
    const again = await http.getText("https://docs.example.net/page");
    expect(again.fromCache).toBe(false);
    expect(await readdir(cacheDir)).toEqual([]);
  });

  it("close() stops the replay server and a later request starts a new one", async () => {
    await http.getText(ITEMS_URL);
    await http.close();
    expect((await http.getText(ITEMS_URL)).status).toBe(200);
  });
});

describe("contentTypeFor()", () => {
  it("contentTypeFor() uses the URL extension, then sniffs the body", () => {
    expect(contentTypeFor("https://x.test/a.json?x=1", Buffer.from("nope"))).toMatch(/^application\/json/);
    expect(contentTypeFor("https://x.test/a.rss", Buffer.from("{}"))).toMatch(/^application\/xml/);
    expect(contentTypeFor("https://x.test/a", Buffer.from("  [1]"))).toMatch(/^application\/json/);
    expect(contentTypeFor("https://x.test/a", Buffer.from("\n<feed/>"))).toMatch(/^application\/xml/);
    expect(contentTypeFor("https://x.test/robots.txt", Buffer.from("User-agent: *"))).toMatch(/^text\/plain/);
  });
});
