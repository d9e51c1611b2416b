import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { ERROR_CODES } from "./error-codes.ts";

const API = resolve(import.meta.dirname, "..");

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === "testing" ? [] : sources(path);
    return e.name.endsWith(".ts") && !e.name.endsWith(".test.ts") ? [path] : [];
  });
}

describe("ERROR_CODES", () => {
  it("lists every code the API's sources write as a literal, once, sorted", () => {
    const written = new Set<string>();
    // new ApiError(404, "code", …), errorBody("code", …), and bodies built by hand: { ok: false, error: "code" }.
    const patterns = [/new ApiError\(\s*\d{3},\s*"([a-z_]+)"/g, /errorBody\(\s*"([a-z_]+)"/g, /ok: false,\s*error: "([a-z_]+)"/g];
    for (const file of sources(API)) {
      const text = readFileSync(file, "utf8");
      for (const pattern of patterns) for (const match of text.matchAll(pattern)) written.add(match[1]!);
    }
    expect(written.size).toBeGreaterThan(60);
    expect([...written].filter((code) => !(ERROR_CODES as readonly string[]).includes(code))).toEqual([]);
    expect([...ERROR_CODES]).toEqual([...new Set(ERROR_CODES)].sort());
  });
});
