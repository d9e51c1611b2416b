/**
 * The warehouse tables and the example questions as Markdown, generated from the declarations in
 * warehouse-tables.ts and warehouse-examples.ts, and the marked sections of snapshots/warehouse/README.md that
 * hold them (so the documentation is never written twice).
 */
import type { WarehouseExample } from "./warehouse-examples.ts";
import type { WarehouseTables } from "./warehouse-tables.ts";

export const TABLES_DOC_START = "<!-- warehouse-tables:start (generated from pipelines/contract/warehouse-tables.ts; `npm run warehouse -- --docs`) -->";
export const TABLES_DOC_END = "<!-- warehouse-tables:end -->";

/** One `####` section per table: what it holds, its key, and a column/type/null/meaning table. */
export function renderWarehouseTables(tables: WarehouseTables): string {
  const out: string[] = [];
  for (const t of Object.values(tables).sort((a, b) => a.name.localeCompare(b.name))) {
    out.push(`#### \`${t.name}\``, "", `${t.description} Written by the \`${t.feed}\` feed. Key: (${t.key.map((k) => `\`${k}\``).join(", ")}).`, "");
    out.push("| column | type | null | meaning |", "|---|---|---|---|");
    for (const c of t.columns) out.push(`| \`${c.name}\` | ${c.type} | ${c.nullable ? "yes" : "no"} | ${c.description.replace(/\|/g, "\\|")} |`);
    out.push("");
  }
  return out.join("\n");
}

/** `readme` with the text between the markers replaced by the generated tables; throws when the markers are missing. */
export function withWarehouseTables(readme: string, tables: WarehouseTables): string {
  return withSection(readme, TABLES_DOC_START, TABLES_DOC_END, renderWarehouseTables(tables));
}

export const EXAMPLES_DOC_START = "<!-- warehouse-examples:start (generated from pipelines/contract/warehouse-examples.ts; `npm run warehouse -- --docs`) -->";
export const EXAMPLES_DOC_END = "<!-- warehouse-examples:end -->";

/** One numbered `####` section per example: the question, its SQL and the columns it answers with. */
export function renderWarehouseExamples(examples: readonly WarehouseExample[]): string {
  const out: string[] = [];
  examples.forEach((e, i) => {
    out.push(`#### ${i + 1}. ${e.question}`, "", "```sql", `${e.sql};`, "```", "", `Answers with: ${e.columns.map((c) => `\`${c}\``).join(", ")}.`, "");
  });
  return out.join("\n");
}

/** `readme` with the text between the example markers replaced by the generated examples; throws when the markers are missing. */
export function withWarehouseExamples(readme: string, examples: readonly WarehouseExample[]): string {
  return withSection(readme, EXAMPLES_DOC_START, EXAMPLES_DOC_END, renderWarehouseExamples(examples));
}

function withSection(readme: string, startMarker: string, endMarker: string, body: string): string {
  const start = readme.indexOf(startMarker);
  const end = readme.indexOf(endMarker);
  if (start < 0 || end < start) throw new Error(`the README has no ${startMarker} … ${endMarker} section`);
  return `${readme.slice(0, start + startMarker.length)}\n\n${body}\n${readme.slice(end)}`;
}
