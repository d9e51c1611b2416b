/**
 * The forum communities behind /api/forum/trending: seven AI subreddits, read through their public hot
 * listings. Chosen for size and focus (research, local models, the big labs' products, image generation);
 * checked 2026-11-21 (all public, none quarantined or NSFW-by-default).
 */
import { z } from "zod";

export const ForumCommunitySchema = z.strictObject({
  /** Subreddit name exactly as the forum spells it (used in the URL). */
  id: z.string().regex(/^[A-Za-z0-9_]{2,21}$/),
  /** What the community is about, one line. */
  topic: z.string().min(1),
});
export type ForumCommunity = z.infer<typeof ForumCommunitySchema>;

/** Curated community list (order: as shown in the snapshot's `communities`). */
export const FORUM_COMMUNITIES: readonly ForumCommunity[] = z.array(ForumCommunitySchema).parse([
  { id: "MachineLearning", topic: "machine-learning research, papers and discussion" },
  { id: "LocalLLaMA", topic: "running open-weight language models locally" },
  { id: "artificial", topic: "general AI news and discussion" },
  { id: "OpenAI", topic: "OpenAI products and models" },
  { id: "singularity", topic: "AI progress and its long-run effects" },
  { id: "ClaudeAI", topic: "Anthropic's Claude models and tools" },
  { id: "StableDiffusion", topic: "open image-generation models and workflows" },
]);

/** When the list above was last checked by hand. */
export const FORUM_COMMUNITIES_CHECKED = "2026-11-21";
