/**
 * Warnings that can repeat every second while a dependency is away (a delivery worker polling a lost database):
 * the first of a run is written, the same text again within the window only counted, and the count said with the
 * next one written after the window. A different text is written at once.
 */

/** `warn`, with repeats of one text held back for `windowMs` (default one minute). */
export function withoutRepeats(warn: (message: string) => void, options: { windowMs?: number; now?: () => number } = {}): (message: string) => void {
  const windowMs = options.windowMs ?? 60_000;
  const now = options.now ?? Date.now;
  let last = "";
  let writtenAt = Number.NEGATIVE_INFINITY;
  let held = 0;
  return (message) => {
    const t = now();
    if (message === last && t - writtenAt < windowMs) {
      held++;
      return;
    }
    const note = message === last && held > 0 ? ` (and ${held} more like it in the last ${Math.round((t - writtenAt) / 1000)} s)` : "";
    last = message;
    writtenAt = t;
    held = 0;
    warn(`${message}${note}`);
  };
}
