/**
 * How the app answers a `tier: "preview"` route: render the preview's fields (once per snapshot generation,
 * warehouse version and input, like a free answer), and only when that succeeded count the call against the
 * client's daily quota, then wrap the fields with `ok`, `preview`, `rate_limit` and `upgrade`. A call that fails
 * (bad input, unknown subject, missing data) uses none of the quota, and neither does a HEAD: it gets the status
 * and headers the GET would get (the allowance as it stands, or the 429 once it is used up) and no data.
 */
import { PREVIEWS, type PreviewRoute, type PreviewSpec } from "./catalog.ts";
import type { PreviewAllowance } from "./quota.ts";
import { previewBody, previewHeaders } from "./response.ts";
import { VersionedMemo } from "../serve/versioned-memo.ts";

/** Rendered fields of preview routes, per input, for one data version (api/serve/versioned-memo.ts). */
export class PreviewFieldsCache extends VersionedMemo<Record<string, unknown>> {}

/** What counts preview calls (api/previews/quota.ts over Postgres). */
export interface PreviewCounter {
  consume(preview: PreviewSpec, address: string): Promise<PreviewAllowance>;
  /** The allowance as it stands, without counting a call (429 once it is used up). */
  peek(preview: PreviewSpec, address: string): Promise<PreviewAllowance>;
}

/** A preview answer: the wrapped body and its RateLimit-* headers. */
export interface PreviewAnswer {
  body: Record<string, unknown>;
  headers: Record<string, string>;
}

/** The catalog entry of a preview route; throws at start for a route that names none. */
export function previewSpecOf(route: { path: string; preview?: PreviewRoute }): PreviewSpec {
  const spec = route.preview ? PREVIEWS[route.preview] : undefined;
  if (!spec) throw new Error(`route registry: preview route ${route.path} names no preview of api/previews/catalog.ts`);
  if (spec.route !== route.path) throw new Error(`route registry: preview route ${route.path} names the quota of ${spec.route}`);
  return spec;
}

/** Render (or reuse) the fields, count the call (a HEAD only reads the count), and wrap the answer. */
export async function answerPreview(options: {
  spec: PreviewSpec;
  counter: PreviewCounter;
  address: string;
  /** True for a HEAD: nothing is counted. */
  head: boolean;
  fields: () => Promise<Record<string, unknown>>;
}): Promise<PreviewAnswer> {
  const fields = await options.fields();
  const allowance = await (options.head ? options.counter.peek(options.spec, options.address) : options.counter.consume(options.spec, options.address));
  return { body: previewBody(fields, options.spec, allowance), headers: previewHeaders(allowance) };
}
