/** Small feeds for the runner's own tests (never the real registry). */
import { z } from "zod";
import { warehouseTable, type WarehouseTables } from "../contract/warehouse-tables.ts";
import type { Feed, FeedOutput, HttpClient } from "../lib/types.ts";

const itemSchema = z.strictObject({ id: z.string(), value: z.number() });
export const listSchema = z.strictObject({ items: z.array(itemSchema) });
export type TestList = z.infer<typeof listSchema>;

/** A feed whose output comes from a function the test controls. */
export function fnFeed(type: string, produce: () => Promise<FeedOutput<unknown>> | FeedOutput<unknown>, extra: Partial<Feed> = {}): Feed {
  return {
    type,
    title: `test feed ${type}`,
    cron: "*/5 * * * *",
    cadence: "every 5 minutes",
    slaSeconds: 900,
    schema: listSchema as z.ZodType<unknown>,
    urls: () => [`https://${type}.example.test/data.json`],
    run: async () => produce(),
    ...extra,
  };
}

/** A feed that fetches one JSON URL through the shared client and checks it. */
export function urlFeed(type: string, url: string): Feed<TestList> {
  return {
    type,
    title: `test url feed ${type}`,
    cron: "*/5 * * * *",
    cadence: "every 5 minutes",
    slaSeconds: 900,
    schema: listSchema,
    urls: () => [url],
    async run(ctx: { http: HttpClient }) {
      const { json } = await ctx.http.getJson(url, { expectContentType: ["application/json"] });
      const data = listSchema.parse(json);
      return {
        data,
        rows: data.items.length,
        sources: [{ id: "test-upstream", ok: true, rows: data.items.length }],
        warehouse: [{ table: "test_values", key: ["id"], rows: data.items.map((i) => ({ id: i.id, value: i.value })) }],
      };
    },
  };
}

/** Warehouse tables the test feeds write (declared here, outside the contract, for runner tests only). */
export const TEST_WAREHOUSE_TABLES: WarehouseTables = Object.fromEntries(
  ["test_values", "alpha_values"].map((name) => [
    name,
    warehouseTable.parse({
      name,
      feed: "test",
      description: "runner test rows",
      key: ["id"],
      columns: [
        { name: "id", type: "VARCHAR", nullable: false, description: "item id" },
        { name: "value", type: "DOUBLE", nullable: true, description: "item value" },
      ],
    }),
  ]),
);
