/** The `news` snapshot: AI news articles from the catalog's RSS/Atom sources, newest first, with the source list. */
import { z } from "zod";
import { httpUrl } from "../fields.ts";
import type { SnapshotType } from "../snapshot-type.ts";

/** Longest title and snippet kept, in UTF-16 units (ellipsis included). */
export const TITLE_MAX = 300;
export const SNIPPET_MAX = 200;
/** Newest articles kept in a snapshot. */
export const NEWS_CAP = 500;

/** The categories a news source belongs to. */
export const NEWS_CATEGORIES = ["company", "research", "press", "newsletter", "community"] as const;
export const newsCategorySchema = z.enum(NEWS_CATEGORIES);
export type NewsCategory = z.infer<typeof newsCategorySchema>;

/** One news article, as the spec's Article resource. */
export const articleSchema = z.strictObject({
  id: z.string().regex(/^[0-9a-f]{16}$/),
  title: z.string().min(1).max(TITLE_MAX),
  url: z.url({ protocol: /^https?$/ }),
  source: z.string().min(1),
  sourceDomain: z.string().min(1),
  snippet: z.string().max(SNIPPET_MAX),
  categories: z.array(z.string().min(1)),
  publishedAt: z.iso.datetime(),
  fetchedAt: z.iso.datetime(),
});
export type Article = z.infer<typeof articleSchema>;

/** One source as listed in the snapshot. */
export const newsSourceEntrySchema = z.strictObject({
  id: z.string().min(1),
  name: z.string().min(1),
  homepage: httpUrl,
  categories: z.array(newsCategorySchema).min(1),
  official: z.boolean(),
});

/** The news snapshot body. */
export const newsSnapshotSchema = z.strictObject({
  articles: z.array(articleSchema).max(NEWS_CAP),
  sources: z.array(newsSourceEntrySchema),
});
export type NewsSnapshot = z.infer<typeof newsSnapshotSchema>;

/** The `news` snapshot type. */
export const newsSnapshotType = {
  type: "news",
  title: "AI news",
  cron: "*/10 * * * *",
  cadence: "every 10 minutes",
  slaSeconds: 1800,
  schema: newsSnapshotSchema,
} satisfies SnapshotType<NewsSnapshot>;
