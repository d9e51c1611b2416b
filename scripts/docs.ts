/**
 * `npm run docs`: writes api/ENDPOINTS.md from the route registry (the same source as /docs, /api/meta,
 * /openapi.json and /llms.txt). `npm run docs -- --check` writes nothing and exits 1 when the file differs.
 */
import { readFile, writeFile } from "node:fs/promises";
import { resolve } from "node:path";
import { routes } from "../api/registry/index.ts";
import { ENDPOINTS_MD_PATH, renderReferenceMarkdown } from "../api/docs/reference-markdown.ts";

const target = resolve(import.meta.dirname, "..", ENDPOINTS_MD_PATH);
const wanted = renderReferenceMarkdown(routes);
const current = await readFile(target, "utf8").catch(() => null);
const args = process.argv.slice(2);
const unknown = args.filter((a) => a !== "--check");
if (unknown.length > 0) {
  process.stderr.write(`docs: unknown argument ${unknown.join(" ")}; usage: npm run docs [-- --check]\n`);
  process.exit(2);
}
if (args.includes("--check")) {
  if (current === wanted) {
    process.stdout.write(`${ENDPOINTS_MD_PATH} matches the registry (${routes.length} routes)\n`);
  } else {
    process.stderr.write(`${ENDPOINTS_MD_PATH} differs from the registry; run npm run docs\n`);
    process.exitCode = 1;
  }
} else if (current === wanted) {
  process.stdout.write(`${ENDPOINTS_MD_PATH} already up to date (${routes.length} routes)\n`);
} else {
  await writeFile(target, wanted);
  process.stdout.write(`wrote ${ENDPOINTS_MD_PATH} (${routes.length} routes)\n`);
}
