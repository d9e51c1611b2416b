import { describe, expect, it } from "vitest";
import { dataDirOf, DEFAULT_DATA_DIR } from "./data-dir.ts";

describe("dataDirOf", () => {
  it("is DATA_DIR when it names a folder, and .data when DATA_DIR is unset or blank", () => {
    expect(dataDirOf("/srv/agentfeed")).toBe("/srv/agentfeed");
    expect(dataDirOf(undefined)).toBe(DEFAULT_DATA_DIR);
    expect(dataDirOf("")).toBe(".data");
    expect(dataDirOf("  ")).toBe(".data");
  });
});
