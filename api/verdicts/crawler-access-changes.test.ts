import { describe, expect, it } from "vitest";
import { fieldChanges } from "./crawler-access-changes.ts";

const c = (date: string, domain: string, field: string, value: string) => ({ date, domain, field, value });

describe("fieldChanges", () => {
  it("reports nothing for one capture or unchanged values", () => {
    expect(fieldChanges([c("2026-11-02", "a.com", "GPTBot", "allowed")])).toEqual([]);
    expect(fieldChanges([c("2026-11-02", "a.com", "GPTBot", "allowed"), c("2026-11-09", "a.com", "GPTBot", "allowed")])).toEqual([]);
    expect(fieldChanges([])).toEqual([]);
  });

  it("reports each change between consecutive captures, in day order, whatever the input order", () => {
    const out = fieldChanges([
      c("2026-11-16", "a.com", "GPTBot", "allowed"),
      c("2026-11-02", "a.com", "GPTBot", "allowed"),
      c("2026-11-09", "a.com", "GPTBot", "blocked"),
      c("2026-11-02", "b.com", "llms.txt", "absent"),
      c("2026-11-09", "b.com", "llms.txt", "present"),
    ]);
    expect(out).toEqual([
      { domain: "a.com", field: "GPTBot", from: "allowed", to: "blocked", at: "2026-11-09" },
      { domain: "b.com", field: "llms.txt", from: "absent", to: "present", at: "2026-11-09" },
      { domain: "a.com", field: "GPTBot", from: "blocked", to: "allowed", at: "2026-11-16" },
    ]);
  });

  it("never compares across domains or fields", () => {
    expect(fieldChanges([c("2026-11-02", "a.com", "GPTBot", "allowed"), c("2026-11-09", "b.com", "GPTBot", "blocked"), c("2026-11-09", "a.com", "CCBot", "blocked")])).toEqual([]);
  });
});
