import { mkdtemp, rm, stat, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dataDirOf, DEFAULT_DATA_DIR, makeDataDir } from "./data-dir.ts";
import { startEmbeddedPostgres } from "./embedded.ts";
import { describeOpenFailure } from "./database-url.ts";

describe("dataDirOf", () => {
  it("is DATA_DIR when it names a folder, and .data when DATA_DIR is unset or blank", () => {
    expect(dataDirOf("/srv/agentfeed")).toBe("/srv/agentfeed");
    expect(dataDirOf(undefined)).toBe(DEFAULT_DATA_DIR);
    expect(dataDirOf("")).toBe(".data");
    expect(dataDirOf("  ")).toBe(".data");
  });
});

describe("a data folder that cannot be made", () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), "agentfeed-datadir-"));
    await writeFile(join(root, "a-file"), "x");
    await symlink(join(root, "nowhere", "target"), join(root, "dangling"));
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  it("makeDataDir() creates the folder and its parents, mode 0700", async () => {
    await makeDataDir(join(root, "new", "data"));
    expect((await stat(join(root, "new", "data"))).mode & 0o777).toBe(0o700);
  });

  it("makeDataDir() names the folder, the file system's cause at the first missing parent, and what to do", async () => {
    await expect(makeDataDir(join(root, "a-file", "x", "data"))).rejects.toThrow(
      new RegExp(`^DATA_DIR ${root}/a-file/x/data cannot be used as the data folder: ENOTDIR: .*; a file stands where a folder is needed`),
    );
    await expect(makeDataDir(join(root, "dangling", "data"))).rejects.toThrow(/EEXIST: .*dangling'; a file stands where a folder is needed/);
  });

  it("the embedded server's start names the data folder, the cause and what to do, as one line", async () => {
    const dataDir = join(root, "a-file", "data");
    const error = await startEmbeddedPostgres({ dataDir }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ name: "EmbeddedPostgresError" });
    const line = describeOpenFailure(error, undefined);
    expect(line).toMatch(new RegExp(`^embedded postgres: cannot write in the data folder ${dataDir} \\(ENOTDIR: .*\\); a file stands where a folder is needed`));
    expect(line).not.toContain("\n");
  });
});
