import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { standardFixture } from "./helpers.ts";
import type { SnapshotFixture } from "./snapshot-fixture.ts";
import { spawnApi, type SpawnedApi } from "../testing/spawn-api.ts";
// Every answer is checked against the OpenAPI document (operation, status, headers, body).
import { contractFetch as fetch } from "../testing/openapi-contract.ts";


let fx: SnapshotFixture;
let child: ChildProcess | undefined;
let port = 0;
let firstLine = "";
let api: SpawnedApi | undefined;
let stateDir = "";

beforeAll(async () => {
  fx = await standardFixture();
  stateDir = await mkdtemp(join(tmpdir(), "agentfeed-e2e-state-"));
  api = await spawnApi(
    { SNAPSHOTS_DIR: fx.dir, RATE_LIMIT_PER_MINUTE: "50", PAYMENT_RATE_LIMIT_PER_MINUTE: "7", PUBLIC_BASE_URL: "https://feed.example", DATA_DIR: stateDir, DATABASE_URL: "" },
  );
  child = api.child;
  port = api.port;
  firstLine = api.firstLine;
});

afterAll(async () => {
  await api?.stop();
  await fx?.remove();
  if (stateDir) await rm(stateDir, { recursive: true, force: true });
});

describe("tsx api/server.ts --no-schedule", () => {
  it("prints one line with its URL and serves HTTP on PORT", async () => {
    expect(firstLine).toContain(`http://127.0.0.1:${port}`);
    const res = await fetch(`http://127.0.0.1:${port}/api/meta`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      site: string;
      service: { base_url: string };
      api: { rate_limits: { free: { requests_per_minute: number }; payment: { requests_per_minute: number } }; errors: { codes: string[] } };
    };
    expect(body.site).toBe("agentfeed");
    expect(body.service.base_url).toBe("https://feed.example");
    expect(body.api.rate_limits.free.requests_per_minute).toBe(50);
    expect(body.api.rate_limits.payment.requests_per_minute).toBe(7);
    expect(body.api.errors.codes).toEqual(expect.arrayContaining(["payment_required", "insufficient_credits", "preview_limit_reached", "body_too_large"]));
    expect(res.headers.get("ratelimit-limit")).toBe("50");
  });

  it("npm start's entry refuses the data folder this server owns before it loads the server, in one line", async () => {
    const { code, out, err } = await failedStart({ DATA_DIR: stateDir, DATABASE_URL: "" }, "api/start.ts");
    expect(code).toBe(1);
    expect(out).toBe("");
    expect(err).toBe(`agentfeed: cannot start: embedded postgres: ${stateDir} is in use: its database belongs to the running agentfeed process pid ${child!.pid}; stop that process, give this one another DATA_DIR, or run several processes against one Postgres server with DATABASE_URL\n`);
    expect((await fetch(`http://127.0.0.1:${port}/api/meta`)).status).toBe(200);
  });

  it("npm start on a taken PORT ends with the one line that says so, having stopped all it started", async () => {
    const otherDir = await mkdtemp(join(tmpdir(), "agentfeed-e2e-taken-port-"));
    try {
      const { code, out, err } = await failedStart({ PORT: String(port), DATA_DIR: otherDir, DATABASE_URL: "", SNAPSHOTS_DIR: fx.dir }, "api/start.ts");
      expect(code).toBe(1);
      expect(out).toBe("");
      expect(err.trim().split("\n"), err).toEqual([expect.stringMatching(new RegExp(`^agentfeed: cannot start: cannot listen on 127\\.0\\.0\\.1:${port} \\(HOST and PORT\\): .*EADDRINUSE`))]);
    } finally {
      await rm(otherDir, { recursive: true, force: true });
    }
  });

  it("exits cleanly on SIGTERM", async () => {
    const code = await new Promise<number | null>((resolve) => {
      child!.once("exit", (c) => resolve(c));
      child!.kill("SIGTERM");
    });
    expect(code).toBe(0);
  });
});

/** Start `entry` with `env` added and resolve to its exit code, stdout and stderr once it exits. */
async function failedStart(env: Record<string, string>, entry = "api/server.ts"): Promise<{ code: number | null; out: string; err: string }> {
  const bad = spawn(process.execPath, ["--import", "tsx", entry, "--no-schedule"], {
    cwd: new URL("../..", import.meta.url).pathname,
    env: { ...process.env, PORT: "0", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  bad.stdout!.on("data", (c: Buffer) => (out += c.toString()));
  bad.stderr!.on("data", (c: Buffer) => (err += c.toString()));
  const code = await new Promise<number | null>((r) => bad.once("exit", r));
  return { code, out, err };
}

describe("api/server.ts configuration", () => {
  it("npm start's entry refuses a bad setting in the same one line as the server, before it loads the server", async () => {
    const { code, out, err } = await failedStart({ PORT: "abc", DATABASE_URL: "" }, "api/start.ts");
    expect(code).toBe(1);
    expect(out).toBe("");
    expect(err).toBe('agentfeed: cannot start: invalid configuration: PORT: PORT must be an integer, got "abc"\n');
  });

  it("refuses a bad RATE_LIMIT_PER_MINUTE with a message naming it", async () => {
    const { code, err } = await failedStart({ RATE_LIMIT_PER_MINUTE: "lots" });
    expect(code).toBe(1);
    expect(err).toContain("RATE_LIMIT_PER_MINUTE");
    expect(err).toContain('"lots"');
  });

  it("refuses a RECEIPT_SIGNING_KEY that is no Ed25519 seed before it starts anything, without printing the value", async () => {
    const { code, err } = await failedStart({ RECEIPT_SIGNING_KEY: "zz-not-a-seed" });
    expect(code).toBe(1);
    expect(err.trim().split("\n")).toHaveLength(1);
    expect(err).toContain("RECEIPT_SIGNING_KEY must be a 32-byte Ed25519 seed");
    expect(err).not.toContain("zz-not-a-seed");
  });

  it("refuses a damaged receipt key file at start, in one line naming it, before it starts the database", async () => {
    const dir = await mkdtemp(join(tmpdir(), "agentfeed-e2e-bad-key-"));
    try {
      await writeFile(join(dir, "receipt-key.json"), '{"seed":');
      const { code, out, err } = await failedStart({ DATA_DIR: dir, DATABASE_URL: "", RECEIPT_SIGNING_KEY: "" }, "api/start.ts");
      expect(code).toBe(1);
      expect(out).toBe("");
      expect(err.trim().split("\n")).toEqual([`agentfeed: cannot start: receipt key: ${join(dir, "receipt-key.json")} is not JSON (restore it from a backup, or move it away to make a new key: receipts signed with the old key then no longer verify here)`]);
      expect(existsSync(join(dir, "pg"))).toBe(false);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("names DATA_DIR when it is a file, not a folder", async () => {
    const dir = await mkdtemp(join(tmpdir(), "agentfeed-e2e-datafile-"));
    try {
      const file = join(dir, "not-a-folder");
      await writeFile(file, "");
      const { code, err } = await failedStart({ DATA_DIR: file });
      expect(code).toBe(1);
      expect(err).toContain(`agentfeed: cannot start: DATA_DIR ${file} cannot be used as the data folder: EEXIST`);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe("api/server.ts start failures", () => {
  it("a data folder another PostgreSQL version wrote ends the start with one line naming the cause, the path and the fix", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "agentfeed-e2e-oldpg-"));
    try {
      await mkdir(join(dataDir, "pg"), { recursive: true });
      await writeFile(join(dataDir, "pg", "PG_VERSION"), "15\n");
      await writeFile(join(dataDir, "pg-credentials.json"), JSON.stringify({ user: "agentfeed", password: "x" }), { mode: 0o600 });
      const { code, out, err } = await failedStart({ DATA_DIR: dataDir, DATABASE_URL: "", SNAPSHOTS_DIR: fx.dir });
      expect(code).toBe(1);
      expect(out).toBe("");
      const lines = err.trim().split("\n");
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^agentfeed: cannot start: .*written by PostgreSQL 15 but this install runs PostgreSQL \d+; move the folder away/);
      expect(lines[0]).toContain(join(dataDir, "pg"));
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
