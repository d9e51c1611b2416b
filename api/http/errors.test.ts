import { describe, expect, it } from "vitest";
import { z } from "zod";
import { invalidInput, MAX_LISTED_ISSUES, toErrorParts } from "./errors.ts";

describe("invalidInput", () => {
  it("lists at most 20 issues, counts the rest, and clips what a message quotes from the request", () => {
    const names = Array.from({ length: 25 }, (_, i) => `p${i}`);
    const schema = z.strictObject(Object.fromEntries(names.map((n) => [n, z.enum(["a", "b"]).refine(() => true)])));
    const sent = "A".repeat(10_000);
    const quoting = z.strictObject({ severity: z.string().refine((v) => v === "Severe", { error: (i) => `severity must be Severe; got "${String(i.input)}"` }) });

    const many = toErrorParts(invalidInput("query", schema.safeParse(Object.fromEntries(names.map((n) => [n, sent]))).error!));
    expect(many.status).toBe(400);
    expect(many.body.issues).toHaveLength(MAX_LISTED_ISSUES);
    expect(many.body.more_issues).toBe(5);

    const quoted = toErrorParts(invalidInput("query", quoting.safeParse({ severity: sent }).error!));
    const text = JSON.stringify(quoted.body);
    expect(text.length).toBeLessThan(1_000);
    expect(quoted.body.message).toMatch(/… \(\d+ characters\)$/);
    expect(quoted.body.more_issues).toBeUndefined();
  });
});
