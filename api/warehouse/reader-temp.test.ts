import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { makeReaderTemp, sweepStaleReaderTemps } from "./reader-temp.ts";

let dir = "";
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("reader temp folders", () => {
  it("a new folder is named after this process and removes those of processes that no longer run", () => {
    dir = mkdtempSync(join(tmpdir(), "agentfeed-reader-temp-test-"));
    const gone = spawnSync(process.execPath, ["-e", ""]).pid!; // a process that has exited
    const stale = `agentfeed-reader-${gone}-Ab12Cd`;
    mkdirSync(join(dir, stale));
    writeFileSync(join(dir, stale, "duckdb_temp_block-1.block"), "spilled");
    const keep = [`agentfeed-reader-${process.pid}-Zz99Yy`, "agentfeed-reader-1-Qq11Ww", "agentfeed-reader-Xy12Zq", "something-else"];
    for (const name of keep) mkdirSync(join(dir, name));

    const made = makeReaderTemp(dir);
    expect(made).toMatch(new RegExp(`/agentfeed-reader-${process.pid}-[A-Za-z0-9]{6}$`));
    expect(existsSync(join(dir, stale))).toBe(false);
    expect(readdirSync(dir).sort()).toEqual([...keep, made.slice(dir.length + 1)].sort());
    expect(sweepStaleReaderTemps(dir)).toEqual([]);
  });
});
