import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createHttpClient, DEFAULT_USER_AGENT, HttpError, type HttpClientOptions } from "./client.ts";
import { startTestServer, type TestServer } from "./test-server.ts";

let server: TestServer;
let sleeps: number[];

beforeEach(async () => {
  server = await startTestServer((_req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end("{}");
  });
  sleeps = [];
});

afterEach(async () => {
  await server.close();
});

/** A client with no disk cache and a sleep that records instead of waiting. */
function client(options: HttpClientOptions = {}) {
  return createHttpClient({
    cacheDir: false,
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

describe("createHttpClient() live requests", () => {
  it("getJson() with jsonBody sends a POST with the body and a JSON content type, and never caches it", async () => {
    const bodies: string[] = [];
    server.handler = (req, res) => {
      let body = "";
      req.on("data", (c: Buffer) => (body += c.toString("utf8")));
      req.on("end", () => {
        bodies.push(body);
        res.writeHead(200, { "content-type": "application/json", etag: '"v1"' });
        res.end('{"results":[]}');
      });
    };
    const http = client();
    const first = await http.getJson(server.url("/v1/querybatch"), { jsonBody: '{"queries":[]}' });
    await http.getJson(server.url("/v1/querybatch"), { jsonBody: '{"queries":[]}' });
    expect(first.json).toEqual({ results: [] });
    expect(server.requests.map((r) => [r.method, r.headers["content-type"], r.headers["if-none-match"]])).toEqual([
      ["POST", "application/json", undefined],
      ["POST", "application/json", undefined],
    ]);
    expect(bodies).toEqual(['{"queries":[]}', '{"queries":[]}']);
  });

  it("getText() returns the body, status, headers and the requested URL", async () => {
    server.handler = (_req, res) => {
      res.writeHead(200, { "content-type": "text/plain; charset=utf-8", "x-test": "yes" });
      res.end("héllo");
    };
    const res = await client().getText(server.url("/a?b=1"));
    expect(res).toMatchObject({ url: server.url("/a?b=1"), status: 200, body: "héllo", fromCache: false });
    expect(res.headers.get("x-test")).toBe("yes");
  });

  it("getText() answers a status the caller accepts (an x402 402 challenge) with its headers and body; others still fail", async () => {
    server.handler = (_req, res) => {
      res.writeHead(402, { "content-type": "application/json", "payment-required": "eyJ4NDAyVmVyc2lvbiI6Mn0=" });
      res.end('{"x402Version":2}');
    };
    const http = client();
    const res = await http.getText(server.url("/paid"), { acceptStatus: [402] });
    expect(res).toMatchObject({ status: 402, body: '{"x402Version":2}', fromCache: false });
    expect(res.headers.get("payment-required")).toBe("eyJ4NDAyVmVyc2lvbiI6Mn0=");
    expect((await failure(http.getText(server.url("/paid")))).status).toBe(402);
    expect(server.requests).toHaveLength(2);
  });

  it("getJson() parses a JSON body", async () => {
    server.handler = (_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end('{"models":[{"id":"m1"}]}');
    };
    const { json, response } = await client().getJson(server.url("/models"));
    expect(json).toEqual({ models: [{ id: "m1" }] });
    expect(response.status).toBe(200);
  });

  it("getText() sends the default User-Agent with a contact, or the configured one", async () => {
    await client().getText(server.url("/ua"));
    expect(server.requests[0]?.headers["user-agent"]).toBe(DEFAULT_USER_AGENT);
    expect(DEFAULT_USER_AGENT).toMatch(/^agentfeed\/\S+ \(\+https:\/\/.+contact/);
    await client({ userAgent: "custom-bot/2 (+mailto:ops@example.org)" }).getText(server.url("/ua"));
    expect(server.requests[1]?.headers["user-agent"]).toBe("custom-bot/2 (+mailto:ops@example.org)");
  });

  it("getText() sends caller headers", async () => {
    await client().getText(server.url("/h"), { headers: { Accept: "application/rss+xml" } });
    expect(server.requests[0]?.headers.accept).toBe("application/rss+xml");
  });

  it("getText() retries a 500 and returns the later success", async () => {
    server.handler = (_req, res, hit) => {
      if (hit === 1) {
        res.writeHead(500);
        res.end("boom");
        return;
      }
      res.writeHead(200, { "content-type": "text/plain" });
      res.end("ok");
    };
    const res = await client({ backoffInitialMs: 100, backoffMaxMs: 1000 }).getText(server.url("/flaky"));
    expect(res.body).toBe("ok");
    expect(server.requests).toHaveLength(2);
    expect(sleeps).toHaveLength(1);
    expect(sleeps[0]).toBeGreaterThan(0);
    expect(sleeps[0]).toBeLessThanOrEqual(1000);
  });

  it("getText() fails with http_status after the retries when the 500 persists", async () => {
    server.handler = (_req, res) => {
      res.writeHead(500);
      res.end();
    };
    const error = await failure(client({ retries: 2 }).getText(server.url("/down")));
    expect(error).toMatchObject({ name: "HttpError", code: "http_status", status: 500, url: server.url("/down") });
    expect(error.message).toBe(`GET ${server.url("/down")} failed: 500 Internal Server Error`);
    expect(server.requests).toHaveLength(3);
    expect(sleeps).toHaveLength(2);
  });

  it("getText() does not retry a 404", async () => {
    server.handler = (_req, res) => {
      res.writeHead(404);
      res.end();
    };
    const error = await failure(client({ retries: 2 }).getText(server.url("/gone")));
    expect(error).toMatchObject({ code: "http_status", status: 404 });
    expect(server.requests).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it("getText() times out a server that never answers, retrying once", async () => {
    server.handler = () => {
      // Never answer.
    };
    const started = performance.now();
    const error = await failure(client({ timeoutMs: 150, retries: 1 }).getText(server.url("/hang")));
    expect(error.code).toBe("timeout");
    expect(error.message).toBe(`GET ${server.url("/hang")} failed: timed out after 150 ms`);
    expect(server.requests).toHaveLength(2);
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it("getText() times out a body that stalls after the headers (per-request timeoutMs)", async () => {
    server.handler = (_req, res) => {
      res.writeHead(200, { "content-type": "text/plain" });
      res.write("partial");
    };
    const error = await failure(client({ retries: 0 }).getText(server.url("/stall"), { timeoutMs: 150 }));
    expect(error.code).toBe("timeout");
  });

  it("getText() reports a refused connection as network", async () => {
    const url = server.url("/x");
    await server.close();
    const error = await failure(client({ retries: 1 }).getText(url));
    expect(error.code).toBe("network");
    expect(error.message).toContain("ECONNREFUSED");
    expect(sleeps).toHaveLength(1);
    server = await startTestServer(() => undefined);
  });

  it("getText() rejects a URL that is not http(s) as network without a request", async () => {
    const error = await failure(client().getText("ftp://example.com/file"));
    expect(error.code).toBe("network");
    expect(error.message).toContain("unsupported protocol ftp:");
  });

  it("getJson() fails with malformed_body on a non-JSON body and does not retry", async () => {
    server.handler = (_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end("<html>oops</html>");
    };
    const error = await failure(client().getJson(server.url("/bad")));
    expect(error).toMatchObject({ code: "malformed_body", status: 200 });
    expect(error.message).toContain('"<html>oops</html>"');
    expect(error.cause).toBeInstanceOf(SyntaxError);
    expect(server.requests).toHaveLength(1);
  });

  it("getText() aborts a streamed body past maxBytes with too_large and does not retry", async () => {
    server.handler = (_req, res) => {
      res.writeHead(200, { "content-type": "text/plain" }); // chunked: no Content-Length to trust
      for (let i = 0; i < 10; i++) res.write("x".repeat(500));
      res.end();
    };
    const error = await failure(client({ maxBytes: 1000 }).getText(server.url("/big")));
    expect(error).toMatchObject({ code: "too_large", status: 200 });
    expect(error.message).toBe(`GET ${server.url("/big")} failed: body exceeds 1000 bytes`);
    expect(server.requests).toHaveLength(1);
  });

  it("getText() rejects a declared Content-Length over a per-request maxBytes", async () => {
    server.handler = (_req, res) => {
      res.writeHead(200, { "content-type": "text/plain", "content-length": "3000" });
      res.end("y".repeat(3000));
    };
    const error = await failure(client().getText(server.url("/big"), { maxBytes: 2000 }));
    expect(error.code).toBe("too_large");
    const ok = await client().getText(server.url("/big"), { maxBytes: 3000 });
    expect(ok.body).toHaveLength(3000);
  });

  it("getText() fails with wrong_content_type when the type is not expected and does not retry", async () => {
    server.handler = (_req, res) => {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.end("<html></html>");
    };
    const error = await failure(
      client().getText(server.url("/page"), { expectContentType: ["application/json", "application/xml"] }),
    );
    expect(error.code).toBe("wrong_content_type");
    expect(error.message).toContain('"text/html; charset=utf-8" is not one of application/json, application/xml');
    expect(server.requests).toHaveLength(1);
    const ok = await client().getText(server.url("/page"), { expectContentType: ["TEXT/HTML"] });
    expect(ok.status).toBe(200);
  });

  it("getText() honours Retry-After seconds on a 429", async () => {
    server.handler = (_req, res, hit) => {
      if (hit === 1) {
        res.writeHead(429, { "retry-after": "2" });
        res.end();
        return;
      }
      res.writeHead(200, { "content-type": "text/plain" });
      res.end("ok");
    };
    const res = await client().getText(server.url("/limited"));
    expect(res.body).toBe("ok");
    expect(sleeps).toEqual([2000]);
  });

  it("getText() honours a Retry-After HTTP date on a 503, capped by maxRetryAfterMs", async () => {
    const now = Date.parse("2026-01-10T12:00:00Z");
    server.handler = (_req, res, hit) => {
      if (hit === 1) res.writeHead(503, { "retry-after": "Sat, 10 Jan 2026 12:00:03 GMT" });
      else if (hit === 2) res.writeHead(503, { "retry-after": "3600" });
      else res.writeHead(200, { "content-type": "text/plain" });
      res.end();
    };
    await client({ now: () => now, maxRetryAfterMs: 5000 }).getText(server.url("/busy"));
    expect(sleeps).toEqual([3000, 5000]);
  });

  it("getText() sends If-None-Match and returns the cached body on a 304", async () => {
    const cacheDir = await mkdtemp(join(tmpdir(), "agentfeed-http-cache-"));
    try {
      server.handler = (req, res) => {
        if (req.headers["if-none-match"] === '"v1"') {
          res.writeHead(304, { etag: '"v1"' });
          res.end();
          return;
        }
        res.writeHead(200, { "content-type": "application/json", etag: '"v1"' });
        res.end('{"v":1}');
      };
      const http = client({ cacheDir });
      const first = await http.getJson(server.url("/etag"));
      expect(first.response.fromCache).toBe(false);
      const second = await http.getJson(server.url("/etag"), { expectContentType: ["application/json"] });
      expect(server.requests[1]?.headers["if-none-match"]).toBe('"v1"');
      expect(second.json).toEqual({ v: 1 });
      expect(second.response).toMatchObject({ status: 200, fromCache: true, url: server.url("/etag") });
      // A fresh client (another run) reads the same cache from disk.
      const third = await client({ cacheDir }).getText(server.url("/etag"));
      expect(third.fromCache).toBe(true);
      const files = (await readdir(cacheDir, { recursive: true })).map(String);
      expect(files.filter((f) => f.endsWith(".json"))).toHaveLength(1);
      expect(files.filter((f) => f.endsWith(".tmp"))).toEqual([]);
    } finally {
      await rm(cacheDir, { recursive: true, force: true });
    }
  });

  it("getText() sends If-Modified-Since from a stored Last-Modified", async () => {
    const cacheDir = await mkdtemp(join(tmpdir(), "agentfeed-http-cache-"));
    const stamp = "Wed, 07 Jan 2026 10:00:00 GMT";
    try {
      server.handler = (req, res) => {
        if (req.headers["if-modified-since"] === stamp) {
          res.writeHead(304);
          res.end();
          return;
        }
        res.writeHead(200, { "content-type": "application/xml", "last-modified": stamp });
        res.end("<rss/>");
      };
      const http = client({ cacheDir });
      await http.getText(server.url("/feed.xml"));
      const again = await http.getText(server.url("/feed.xml"));
      expect(again).toMatchObject({ body: "<rss/>", fromCache: true });
      expect(server.requests[0]?.headers["if-modified-since"]).toBeUndefined();
    } finally {
      await rm(cacheDir, { recursive: true, force: true });
    }
  });

  it("getText() opens the host's circuit after consecutive failures and then fails fast", async () => {
    server.handler = (_req, res) => {
      res.writeHead(502);
      res.end();
    };
    const other = await startTestServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/plain" });
      res.end("fine");
    });
    try {
      const http = client({ retries: 0, breakerThreshold: 3 });
      for (let i = 0; i < 3; i++) {
        expect((await failure(http.getText(server.url(`/p${i}`)))).code).toBe("http_status");
      }
      const error = await failure(http.getText(server.url("/p3")));
      expect(error.code).toBe("circuit_open");
      expect(error.message).toContain(`circuit open for ${new URL(server.url("/")).host}`);
      expect(server.requests).toHaveLength(3);
      // Another host keeps its own breaker.
      expect((await http.getText(other.url("/"))).body).toBe("fine");
    } finally {
      await other.close();
    }
  });

  it("getText() lets one trial request through after the cooldown and closes the circuit on success", async () => {
    server.handler = (_req, res, hit) => {
      res.writeHead(hit <= 2 ? 500 : 200, { "content-type": "text/plain" });
      res.end(hit <= 2 ? "" : "back");
    };
    const http = client({ retries: 0, breakerThreshold: 2, breakerCooldownMs: 50 });
    for (let i = 0; i < 2; i++) await failure(http.getText(server.url("/r")));
    expect((await failure(http.getText(server.url("/r")))).code).toBe("circuit_open");
    await new Promise((ok) => setTimeout(ok, 80));
    expect((await http.getText(server.url("/r"))).body).toBe("back");
    expect((await http.getText(server.url("/r"))).body).toBe("back");
    expect(server.requests).toHaveLength(4);
  });

  it("getText() still succeeds when the cache cannot be written, and reports a warning", async () => {
    const parent = await mkdtemp(join(tmpdir(), "agentfeed-http-cache-"));
    const blocked = join(parent, "not-a-dir");
    await writeFile(blocked, "a file where the cache folder should be");
    const warnings: string[] = [];
    try {
      server.handler = (_req, res) => {
        res.writeHead(200, { "content-type": "text/plain", etag: '"e"' });
        res.end("body");
      };
      const res = await client({ cacheDir: blocked, onWarning: (m) => warnings.push(m) }).getText(server.url("/w"));
      expect(res.body).toBe("body");
      expect(warnings).toEqual([`http cache: could not store ${server.url("/w")}`]);
    } finally {
      await rm(parent, { recursive: true, force: true });
    }
  });

  it("getText() does not count a 404 against the host's circuit", async () => {
    server.handler = (_req, res) => {
      res.writeHead(404);
      res.end();
    };
    const http = client({ retries: 0, breakerThreshold: 2 });
    for (let i = 0; i < 4; i++) {
      expect((await failure(http.getText(server.url("/missing")))).code).toBe("http_status");
    }
    expect(server.requests).toHaveLength(4);
  });

  it("getText() keeps at most perHostConcurrency requests in flight per host", async () => {
    let inFlight = 0;
    let maxInFlight = 0;
    server.handler = (_req, res) => {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      setTimeout(() => {
        inFlight--;
        res.writeHead(200, { "content-type": "text/plain" });
        res.end("ok");
      }, 40);
    };
    const http = client({ perHostConcurrency: 2 });
    const results = await Promise.all(Array.from({ length: 7 }, (_, i) => http.getText(server.url(`/c${i}`))));
    expect(results.every((r) => r.body === "ok")).toBe(true);
    expect(server.requests).toHaveLength(7);
    expect(maxInFlight).toBe(2);
  });
});
