/**
 * A repository's releases on the code host, `GET https://api.github.com/repos/<owner>/<repo>/releases?per_page=20`
 * (REST API, public; 60 requests an hour without a token, more with GITHUB_TOKEN): an array of
 * `{ tag_name, name, html_url, draft, prerelease, published_at }`, newest first.
 *
 * `parseReleases` keeps published, non-draft releases (pre-releases too: a specification's release candidate
 * is news to a stack), newest first, with sanitized names. A release whose `published_at` is unreadable, before
 * 1990 or more than a day after the fetch time is left out alone (it would otherwise sort first forever).
 */
import { z } from "zod";
import { sanitize } from "../lib/sanitize.ts";
import { pastTime } from "../lib/time.ts";

export const githubReleasesUrl = (repository: string) => `https://api.github.com/repos/${repository}/releases?per_page=20`;

/** A body that is not a release listing. */
export class GithubReleasesParseError extends Error {
  override name = "GithubReleasesParseError";
}

const release = z.looseObject({
  tag_name: z.string().min(1),
  name: z.string().nullish(),
  html_url: z.string(),
  draft: z.boolean().nullish(),
  published_at: z.string().nullish(),
});

export interface Release {
  tag: string;
  name: string;
  published_at: string;
  url: string;
}

/** The releases of a listing fetched at `now`, newest first, at most `max`. */
export function parseReleases(body: string, now: Date, max = 20): Release[] {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw new GithubReleasesParseError("release listing is not JSON");
  }
  if (!Array.isArray(json)) throw new GithubReleasesParseError("release listing is not an array");
  const out: Release[] = [];
  for (const raw of json) {
    const r = release.safeParse(raw);
    if (!r.success || r.data.draft === true || !r.data.published_at || !URL.canParse(r.data.html_url)) continue;
    const published = pastTime(r.data.published_at, now);
    if (published === null) continue;
    out.push({
      tag: sanitize(r.data.tag_name, { maxLength: 80 }),
      name: sanitize(r.data.name ?? "", { maxLength: 200 }),
      published_at: published,
      url: r.data.html_url,
    });
  }
  return out.sort((a, b) => (a.published_at < b.published_at ? 1 : a.published_at > b.published_at ? -1 : 0)).slice(0, max);
}
