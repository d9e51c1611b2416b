/**
 * A bad setting as the one line a failed start prints: the variable, what is wrong with it and the value it
 * has (cut to 100 characters), so an operator sees at once what to change. A secret's value is never shown.
 */
import { clip } from "./http/clip.ts";

/** Settings whose value is never printed (signing keys, credentials in a database URL). */
const SECRET = /KEY|SECRET|PASSWORD|TOKEN|DATABASE_URL/;

/** `NAME: message, got "value"` for one zod issue on an environment object. */
export function envIssueLine(issue: { path: readonly PropertyKey[]; message: string }, env: Record<string, string | undefined>): string {
  const name = issue.path.map(String).join(".") || "env";
  const value = env[name];
  const show = value !== undefined && !SECRET.test(name) && !/\bgot\b/.test(issue.message);
  return `${name}: ${issue.message}${show ? `, got ${JSON.stringify(clip(value, 100))}` : ""}`;
}
