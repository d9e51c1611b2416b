import { describe, expect, it } from "vitest";
import { describeStartFailure, serverComplaint } from "./startup-failure.ts";

const base = { step: "start" as const, clusterDir: "/srv/agentfeed/.data/pg", binary: "/x/bin/postgres", port: 5544 };
const line = (text: string) => `2026-11-23 15:38:04.898 UTC [2409] ${text}`;

describe("describeStartFailure()", () => {
  it("describeStartFailure() names a full disk with the folder", () => {
    const error = describeStartFailure({
      ...base,
      exit: { code: 1, signal: null },
      log: [line('FATAL:  could not write to file "pg_wal/xlogtemp.2409": No space left on device')],
    });
    expect(error.message).toBe(
      'embedded postgres: the disk holding /srv/agentfeed/.data/pg is full (FATAL:  could not write to file "pg_wal/xlogtemp.2409": No space left on device); free some space and start again',
    );
  });

  it("describeStartFailure() names a taken port and the way out", () => {
    const error = describeStartFailure({
      ...base,
      exit: { code: 1, signal: null },
      log: [line('LOG:  could not bind IPv4 address "127.0.0.1": Address already in use'), line("FATAL:  could not create any TCP/IP sockets")],
    });
    expect(error.message).toMatch(/^embedded postgres: port 127\.0\.0\.1:5544 is already in use/);
  });

  it("describeStartFailure() calls a cluster the server cannot read damaged", () => {
    const error = describeStartFailure({
      ...base,
      exit: { code: 1, signal: null },
      log: [line('FATAL:  could not read file "global/pg_control": read 0 of 296')],
    });
    expect(error.message).toMatch(/the cluster in \/srv\/agentfeed\/\.data\/pg is damaged .*move it away/);
  });

  it("describeStartFailure() tells a missing and an unrunnable binary apart", () => {
    const missing = Object.assign(new Error("spawn /x/bin/postgres ENOENT"), { code: "ENOENT" });
    const denied = Object.assign(new Error("spawn /x/bin/postgres EACCES"), { code: "EACCES" });
    expect(describeStartFailure({ ...base, spawnError: missing, log: [] }).message).toMatch(/\(ENOENT: not found\); run npm ci/);
    expect(describeStartFailure({ ...base, spawnError: denied, log: [] }).message).toMatch(/\(EACCES\); check that the user running agentfeed may execute it/);
  });

  it("describeStartFailure() falls back to the server's own words, on one line", () => {
    const error = describeStartFailure({ ...base, port: undefined, step: "initdb", exit: { code: 1, signal: null }, log: ["initdb: error: something new\nsecond"] });
    expect(error.message).toBe(
      "embedded postgres: initdb of /srv/agentfeed/.data/pg failed (exit 1: initdb: error: something new); check that folder and try again, or set DATABASE_URL to a Postgres server",
    );
  });

  it("serverComplaint() drops the log prefix and keeps the most serious line", () => {
    expect(serverComplaint([line("LOG:  starting"), line("FATAL:  bad thing"), line("LOG:  shutting down")])).toBe("FATAL:  bad thing");
  });
});
