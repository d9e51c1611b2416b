/** Price helpers shared by the routes and the verdicts. */
import { round } from "./round.ts";

/** The 3:1 input:output blend of two USD-per-1M prices, rounded to 4 decimals. */
export function blended(input: number, output: number): number {
  return round((3 * input + output) / 4, 4);
}
