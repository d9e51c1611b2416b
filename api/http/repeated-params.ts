/**
 * A query parameter given more than once (`limit=1&limit=3`). Every declared parameter is one value (lists are
 * comma-separated), and the query parser hands a repeated one over as an array, which a schema then reports as
 * "expected number, received NaN" or the like. Refused first with a 400 that names it and says what to do.
 */
import { ZodError, type z } from "zod";

/** A ZodError naming each parameter of `query` that was given several times; undefined when none was. */
export function repeatedParams(query: Record<string, unknown>): ZodError | undefined {
  const issues: z.core.$ZodIssue[] = [];
  for (const [name, value] of Object.entries(query)) {
    if (!Array.isArray(value)) continue;
    issues.push({ code: "custom", path: [name], message: `${name} is given ${value.length} times; give each parameter once (a list is one value, comma-separated)`, input: value });
  }
  return issues.length > 0 ? new ZodError(issues) : undefined;
}
