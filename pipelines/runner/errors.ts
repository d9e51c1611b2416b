/** Errors the runner raises itself. */

/** A feed name on the command line (or in options) that the registry does not hold. */
export class UnknownFeedError extends Error {
  override readonly name = "UnknownFeedError";
  constructor(
    readonly unknown: string[],
    readonly known: string[],
  ) {
    super(`unknown feed${unknown.length > 1 ? "s" : ""} ${unknown.map((n) => JSON.stringify(n)).join(", ")}; known feeds: ${known.join(", ")}`);
  }
}

/** A replay folder that does not exist: every feed would fail and record that failure, so nothing runs. */
export class MissingReplayDirError extends Error {
  override readonly name = "MissingReplayDirError";
  constructor(readonly replayDir: string) {
    super(`replay folder ${replayDir}: no such folder of recorded fixtures`);
  }
}

/** A feed's output did not pass its strict schema. */
export class FeedSchemaError extends Error {
  override readonly name = "FeedSchemaError";
  constructor(type: string, detail: string, options?: { cause?: unknown }) {
    super(`feed ${type}: output failed its schema: ${detail}`, options);
  }
}

/** A feed's run did not settle in time. */
export class FeedTimeoutError extends Error {
  override readonly name = "FeedTimeoutError";
  constructor(type: string, ms: number) {
    super(`feed ${type}: run did not finish within ${ms} ms`);
  }
}
