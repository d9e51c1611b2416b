import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { generateClientSchema, SCHEMA_FILE } from "./client-generate.ts";

describe("the typed client's generated schema", () => {
  it("equals what openapi-typescript makes of the current OpenAPI document (else run npm run client:generate)", async () => {
    const committed = await readFile(SCHEMA_FILE, "utf8");
    const fresh = await generateClientSchema();
    expect(committed === fresh, "clients/typescript/src/schema.ts is out of date: run npm run client:generate").toBe(true);
  });
});
