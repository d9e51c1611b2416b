/**
 * The warehouse tables as Markdown, generated from the declarations in warehouse-tables.ts, and the marked
 * section of a README that holds it (so the documentation is never written twice).
 */
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
  const start = readme.indexOf(TABLES_DOC_START);
  const end = readme.indexOf(TABLES_DOC_END);
  if (start < 0 || end < start) throw new Error(`the README has no ${TABLES_DOC_START} … ${TABLES_DOC_END} section`);
  return `${readme.slice(0, start + TABLES_DOC_START.length)}\n\n${renderWarehouseTables(tables)}\n${readme.slice(end)}`;
}
