/**
 * Numbers in the query, read strictly. A parameter whose schema coerces to a number (`z.coerce.number()`) would
 * otherwise take whatever JavaScript's `Number()` reads: an empty value as 0 (`w_quality=` weighing quality at
 * nothing), `0x10` as 16, `1e3` as 1000, ` 5` and `+5` as 5. Such a value is refused with a 400 that names the
 * parameter; only a plain decimal (`12`, `0.25`, `-3`) goes on to the route's schema, which checks its range.
 */
import { ZodError, type z } from "zod";
import { clip } from "./clip.ts";

const DECIMAL = /^-?\d+(\.\d+)?$/;

/** Wrappers that keep the inner schema's coercion (an optional or defaulted number is still a coerced number). */
const WRAPPERS = new Set(["optional", "default", "prefault", "nullable", "catch", "readonly"]);

interface SchemaDef {
  type: string;
  coerce?: boolean;
  innerType?: { _zod: { def: SchemaDef } };
}

/** "integer" or "number" for a schema that coerces to a number (through wrappers), else null. */
function coercedNumberKind(schema: unknown): "integer" | "number" | null {
  let node = schema as { _zod?: { def?: SchemaDef }; format?: string | null } | undefined;
  let def = node?._zod?.def;
  while (def && WRAPPERS.has(def.type) && def.innerType) {
    node = def.innerType as typeof node;
    def = def.innerType._zod.def;
  }
  if (def?.type !== "number" || def.coerce !== true) return null;
  // zod's .int() gives the number the safeint format.
  return node?.format === "safeint" || node?.format === "int32" || node?.format === "uint32" ? "integer" : "number";
}

const paramsBySchema = new WeakMap<object, readonly (readonly [string, "integer" | "number"])[]>();

/** The parameters of an object schema that coerce to a number, with their kind; computed once per schema. */
function numberParams(schema: z.ZodType): readonly (readonly [string, "integer" | "number"])[] {
  let params = paramsBySchema.get(schema);
  if (!params) {
    const shape = (schema as { shape?: Record<string, unknown> }).shape ?? {};
    params = Object.keys(shape).flatMap((name) => {
      const kind = coercedNumberKind(shape[name]);
      return kind ? [[name, kind] as const] : [];
    });
    paramsBySchema.set(schema, params);
  }
  return params;
}

/** A ZodError naming each number parameter whose value is not a plain decimal; undefined when all are. */
export function looseNumbers(schema: z.ZodType, query: Record<string, unknown>): ZodError | undefined {
  const issues: z.core.$ZodIssue[] = [];
  for (const [name, kind] of numberParams(schema)) {
    const value = query[name];
    if (typeof value !== "string" || DECIMAL.test(value)) continue;
    const message =
      value.trim() === ""
        ? `${name} is empty: give a number or leave the parameter out`
        : kind === "integer"
          ? `${name} must be a whole number such as 5; got ${JSON.stringify(clip(value, 40))}`
          : `${name} must be a plain decimal number such as 5 or 0.25; got ${JSON.stringify(clip(value, 40))}`;
    issues.push({ code: "custom", path: [name], message, input: value });
  }
  return issues.length > 0 ? new ZodError(issues) : undefined;
}
