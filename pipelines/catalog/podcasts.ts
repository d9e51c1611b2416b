/**
 * The AI podcasts the `podcasts` feed reads: each show's real public RSS feed (as its host serves it), checked on
 * PODCASTS_CHECKED. Add a show by adding a line; the feed, --list-urls and the route's `shows` read this list.
 */
import { z } from "zod";
import { catalogId, httpsUrl } from "./curated-fields.ts";

/** Date (YYYY-MM-DD) this list and its feed URLs were last checked. */
export const PODCASTS_CHECKED = "2026-11-22";

/** One curated show. */
export const podcastShowSchema = z.strictObject({
  id: catalogId,
  name: z.string().min(1),
  /** The show's own page. */
  homepage: httpsUrl,
  /** The public podcast RSS feed (RSS 2.0 with the itunes: namespace). */
  feed: httpsUrl,
  /** Who serves the feed (Megaphone, Substack, Anchor …), for the README and debugging. */
  host: z.string().min(1),
});
export type PodcastShow = z.infer<typeof podcastShowSchema>;

const catalogSchema = z
  .array(podcastShowSchema)
  .min(8)
  .refine((list) => new Set(list.map((s) => s.id)).size === list.length, "podcast ids must be unique")
  .refine((list) => new Set(list.map((s) => s.feed)).size === list.length, "podcast feed URLs must be unique")
  .refine((list) => new Set(list.map((s) => s.name)).size === list.length, "podcast names must be unique");

/** Every curated show, validated when the module loads. */
export const PODCAST_SHOWS: PodcastShow[] = catalogSchema.parse([
  { id: "latent-space", name: "Latent Space", homepage: "https://www.latent.space/podcast", feed: "https://api.substack.com/feed/podcast/1084089.rss", host: "Substack" },
  { id: "lex-fridman", name: "Lex Fridman Podcast", homepage: "https://lexfridman.com/podcast/", feed: "https://lexfridman.com/feed/podcast/", host: "self-hosted (WordPress)" },
  { id: "twiml", name: "The TWIML AI Podcast", homepage: "https://twimlai.com/podcast/twimlai/", feed: "https://feeds.megaphone.fm/MLN2155636147", host: "Megaphone" },
  { id: "practical-ai", name: "Practical AI", homepage: "https://practicalai.fm/", feed: "https://feeds.transistor.fm/practical-ai-machine-learning-data-science-llm", host: "Transistor" },
  { id: "dwarkesh", name: "Dwarkesh Podcast", homepage: "https://www.dwarkesh.com/podcast", feed: "https://api.substack.com/feed/podcast/69345.rss", host: "Substack" },
  { id: "no-priors", name: "No Priors", homepage: "https://www.no-priors.com/", feed: "https://feeds.megaphone.fm/nopriors", host: "Megaphone" },
  { id: "cognitive-revolution", name: "The Cognitive Revolution", homepage: "https://www.cognitiverevolution.ai/", feed: "https://feeds.megaphone.fm/RINTP3108857801", host: "Megaphone" },
  { id: "mlst", name: "Machine Learning Street Talk", homepage: "https://www.youtube.com/@MachineLearningStreetTalk", feed: "https://anchor.fm/s/1e4a0eac/podcast/rss", host: "Spotify for Creators (Anchor)" },
  { id: "eye-on-ai", name: "Eye On A.I.", homepage: "https://www.eye-on.ai/", feed: "https://aneyeonai.libsyn.com/rss", host: "Libsyn" },
  { id: "gradient-dissent", name: "Gradient Dissent", homepage: "https://wandb.ai/site/podcast", feed: "https://feeds.captivate.fm/gradient-dissent/", host: "Captivate" },
]);
