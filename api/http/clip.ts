/** Echoing client input in error messages: at most ECHO_MAX characters, so a 12,000-character path comes back short. */

/** Longest piece of client input repeated in an error message. */
export const ECHO_MAX = 200;

/** `value` cut to `max` characters, with an ellipsis and the full length when cut. */
export function clip(value: string, max = ECHO_MAX): string {
  return value.length <= max ? value : `${value.slice(0, max)}… (${value.length} characters)`;
}
