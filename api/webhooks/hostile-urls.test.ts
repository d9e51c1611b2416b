/**
 * The hostile-URL matrix: each URL is refused by the registration check AND by the sender at delivery time,
 * while a listener on 127.0.0.1 (where most of them point) must see no connection at all.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkCallbackUrl, type LookupAll } from "./callback-check.ts";
import { sendWebhook } from "./send.ts";

let server: Server;
let port = 0;
let connections = 0;

/** Test DNS: names that resolve to private addresses, one that mixes public and private, one that is public. */
const lookup: LookupAll = async (hostname) => {
  const table: Record<string, string[]> = {
    "loopback.rebind.test": ["127.0.0.1"],
    "private.rebind.test": ["10.1.2.3"],
    "mixed.rebind.test": ["93.184.215.14", "127.0.0.1"],
    "v6loop.rebind.test": ["::1"],
    "mapped.rebind.test": ["::ffff:127.0.0.1"],
    "metadata.rebind.test": ["169.254.169.254"],
    "public.example.test": ["93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c"],
  };
  const found = table[hostname];
  if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
  return found.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
};

beforeAll(async () => {
  server = createServer((_req, res) => res.end("seen"));
  server.on("connection", () => connections++);
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise<void>((ok) => server.close(() => ok()));
});

const hostile = (): string[] => [
  `http://127.0.0.1:${port}/`,
  `http://2130706433:${port}/`, // decimal
  `http://0177.0.0.1:${port}/`, // octal
  `http://0x7f.0.0.1:${port}/`, // hex octet
  `http://0x7f000001:${port}/`, // hex whole
  `http://127.1:${port}/`, // short form
  `http://017700000001:${port}/`, // octal whole
  `http://0:${port}/`, // unspecified, short
  `http://0.0.0.0:${port}/`,
  `http://[::1]:${port}/`,
  `http://[0:0:0:0:0:0:0:1]:${port}/`,
  `http://[::ffff:127.0.0.1]:${port}/`, // IPv4-mapped
  `http://[::ffff:7f00:1]:${port}/`, // IPv4-mapped, hex
  `http://[::127.0.0.1]:${port}/`, // IPv4-compatible
  `http://[64:ff9b::7f00:1]:${port}/`, // NAT64
  `http://[2002:7f00:1::1]:${port}/`, // 6to4 of 127.0.0.1
  `http://[::]:${port}/`,
  `http://localhost:${port}/`,
  `http://hooks.localhost:${port}/`,
  `http://LOCALHOST.:${port}/`,
  `http://loopback.rebind.test:${port}/`, // DNS name → 127.0.0.1
  `http://mixed.rebind.test:${port}/`, // DNS name → public and 127.0.0.1
  `http://v6loop.rebind.test:${port}/`, // DNS name → ::1
  `http://mapped.rebind.test:${port}/`, // DNS name → ::ffff:127.0.0.1
  "http://private.rebind.test/", // DNS name → 10.1.2.3
  "http://metadata.rebind.test/", // DNS name → metadata address
  "http://unknown-name.rebind.test/", // does not resolve
  "http://10.0.0.1/",
  "http://172.16.5.4/",
  "http://192.168.1.1/",
  "http://169.254.169.254/latest/meta-data/",
  "http://[::ffff:169.254.169.254]/",
  "http://[fd00:ec2::254]/",
  "http://metadata.google.internal/computeMetadata/v1/",
  "http://100.64.0.1/",
  "http://224.0.0.1/",
  "http://255.255.255.255/",
  "http://192.0.2.10/", // documentation
  "http://198.18.0.1/", // benchmarking
  "http://240.0.0.1/", // reserved
  "http://[fc00::1]/",
  "http://[fe80::1]/",
  "http://[ff02::1]/",
  "http://[2001:db8::1]/", // documentation
  "http://[fec0::1]/", // site-local
  `ftp://127.0.0.1:${port}/`,
  "file:///etc/passwd",
  "gopher://93.184.215.14/",
  "javascript:alert(1)",
  `http://user:pass@93.184.215.14/`,
  "not a url",
  "",
];

describe("hostile callback URLs", () => {
  it("has at least 30 cases", () => {
    expect(hostile().length).toBeGreaterThanOrEqual(30);
  });

  it("refuses every one at registration", async () => {
    for (const url of hostile()) {
      const result = await checkCallbackUrl(url, { allowPrivate: false, lookup });
      expect(result, url).toMatchObject({ ok: false });
      if (!result.ok) expect(result.error).toMatch(/^(invalid_callback_url|callback_not_public|callback_unresolvable)$/);
    }
  });

  it("refuses every one at delivery, and the listener sees no connection", async () => {
    for (const url of hostile()) {
      const outcome = await sendWebhook({ url, body: "{}", headers: {}, allowPrivate: false, lookup, timeoutMs: 2000 });
      expect(outcome.delivered, url).toBe(false);
      expect(outcome.statusCode, url).toBeNull();
    }
    expect(connections).toBe(0);
  });

  it("refuses cloud metadata even when private callbacks are allowed", async () => {
    for (const url of ["http://169.254.169.254/", "http://[fd00:ec2::254]/", "http://metadata.google.internal/", "http://metadata.rebind.test/", "http://[::ffff:a9fe:a9fe]/"]) {
      expect(await checkCallbackUrl(url, { allowPrivate: true, lookup }), url).toMatchObject({ ok: false, error: "callback_not_public" });
    }
  });

  it("accepts public addresses and names", async () => {
    for (const url of ["https://93.184.215.14/hook", "https://[2606:4700:4700::1111]/hook", "https://public.example.test/hooks?x=1", "http://public.example.test:8443/"]) {
      expect(await checkCallbackUrl(url, { allowPrivate: false, lookup }), url).toEqual({ ok: true });
    }
  });

  it("accepts loopback when private callbacks are allowed", async () => {
    expect(await checkCallbackUrl(`http://127.0.0.1:${port}/`, { allowPrivate: true, lookup })).toEqual({ ok: true });
    expect(await checkCallbackUrl(`http://loopback.rebind.test:${port}/`, { allowPrivate: true, lookup })).toEqual({ ok: true });
  });
});
