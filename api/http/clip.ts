/**
 * Echoing client input (or upstream text) in a message: control characters, format characters (bidi overrides,
 * zero-width characters), line and paragraph separators and lone surrogates replaced by "?", then at most
 * ECHO_MAX characters, so a 12,000-character path comes back short and nothing invisible comes back at all.
 */

/** Longest piece of client input repeated in an error message. */
export const ECHO_MAX = 200;

/** What `visible` replaces: Unicode Cc, Cf, Zl, Zp and Cs (a surrogate not part of a pair). */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/gu;

/** `text` with every control, format or separator character and lone surrogate replaced by "?". */
export function visible(text: string): string {
  return text.replace(INVISIBLE, "?");
}

/** `value` made {@link visible} and cut to `max` characters, with an ellipsis and the full length when cut. */
export function clip(value: string, max = ECHO_MAX): string {
  const shown = visible(value);
  return shown.length <= max ? shown : `${shown.slice(0, max)}… (${shown.length} characters)`;
}
