/**
 * How the app answers a `tier: "preview"` route: render the preview's fields (once per snapshot generation,
 * warehouse version and input, like a free answer), and only when that succeeded count the call against the
 * client's daily quota, then wrap the fields with `ok`, `preview`, `rate_limit` and `upgrade`. A call that fails
 * (bad input, unknown subject, missing data) uses none of the quota.
 */
import { PREVIEWS, type PreviewRoute, type PreviewSpec } from "./catalog.ts";
import type { PreviewAllowance } from "./quota.ts";
import { previewBody, previewHeaders } from "./response.ts";

/** What counts preview calls (api/previews/quota.ts over Postgres). */
export interface PreviewCounter {
  consume(preview: PreviewSpec, address: string): Promise<PreviewAllowance>;
}

/** A preview answer: the wrapped body and its RateLimit-* headers. */
export interface PreviewAnswer {
  body: Record<string, unknown>;
  headers: Record<string, string>;
}

/** Rendered fields kept per input; dropped whole when the data they were computed from changes. */
export class PreviewFieldsCache {
  readonly #max: number;
  #version = "";
  readonly #fields = new Map<string, Record<string, unknown>>();

  constructor(maxEntries = 2_000) {
    this.#max = maxEntries;
  }

  /** The fields of `key` rendered at data version `version`, rendering them when absent. */
  async get(version: string, key: string, render: () => Promise<Record<string, unknown>>): Promise<Record<string, unknown>> {
    if (version !== this.#version) {
      this.#fields.clear();
      this.#version = version;
    }
    const hit = this.#fields.get(key);
    if (hit) return hit;
    const fields = await render();
    if (version === this.#version) {
      if (this.#fields.size >= this.#max) this.#fields.delete(this.#fields.keys().next().value!);
      this.#fields.set(key, fields);
    }
    return fields;
  }
}

/** The catalog entry of a preview route; throws at start for a route that names none. */
export function previewSpecOf(route: { path: string; preview?: PreviewRoute }): PreviewSpec {
  const spec = route.preview ? PREVIEWS[route.preview] : undefined;
  if (!spec) throw new Error(`route registry: preview route ${route.path} names no preview of api/previews/catalog.ts`);
  if (spec.route !== route.path) throw new Error(`route registry: preview route ${route.path} names the quota of ${spec.route}`);
  return spec;
}

/** Render (or reuse) the fields, count the call, and wrap the answer. */
export async function answerPreview(options: {
  spec: PreviewSpec;
  counter: PreviewCounter;
  address: string;
  fields: () => Promise<Record<string, unknown>>;
}): Promise<PreviewAnswer> {
  const fields = await options.fields();
  const allowance = await options.counter.consume(options.spec, options.address);
  return { body: previewBody(fields, options.spec, allowance), headers: previewHeaders(allowance) };
}
