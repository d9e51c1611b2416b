/**
 * `npm run try:premium [-- --base-url URL] [--buy]`: trial credits → a premium call → receipt verification
 * against a running server (default http://localhost:3000), each step printed with its curl equivalent;
 * `--buy` also buys credits with test USDC when the server runs its local test chain. See
 * api/payments/client/try-premium.ts and api/payments/README.md.
 */
import { parseArgs } from "node:util";
import { tryPremium, TryPremiumError } from "../api/payments/client/try-premium.ts";

const usage = "usage: npm run try:premium [-- --base-url http://localhost:3000] [--buy]";
let values: { "base-url"?: string; buy?: boolean; help?: boolean };
try {
  ({ values } = parseArgs({ options: { "base-url": { type: "string" }, buy: { type: "boolean" }, help: { type: "boolean", short: "h" } } }));
} catch (err) {
  process.stderr.write(`try:premium: ${(err as Error).message}\n${usage}\n`);
  process.exit(2);
}
if (values.help) {
  process.stdout.write(`${usage}\n`);
  process.exit(0);
}
const baseUrl = values["base-url"] ?? `http://localhost:${process.env.PORT || 3000}`;
if (!/^https?:\/\/[^\s]+$/.test(baseUrl)) {
  process.stderr.write(`try:premium: --base-url must be an http(s) URL, got ${JSON.stringify(baseUrl.slice(0, 100))}\n${usage}\n`);
  process.exit(2);
}
try {
  await tryPremium({ baseUrl, buy: values.buy === true, log: (line) => process.stdout.write(`${line}\n`) });
  process.stdout.write("\ntry:premium finished\n");
} catch (err) {
  process.stderr.write(`try:premium: ${err instanceof TryPremiumError ? err.message : ((err as Error).stack ?? String(err))}\n`);
  process.exitCode = 1;
}
