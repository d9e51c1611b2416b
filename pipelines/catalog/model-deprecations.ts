/**
 * Model retirements and deprecations by provider, copied by hand from each provider's official deprecation page
 * (the `source` of every entry) and checked on the entry's `checked` date. Only entries those pages state are
 * listed; a replacement is given only where the page names one consistently, else null. Dates are UTC days.
 *
 * Status, as of `checked`: `announced` (a future deprecation was announced, the model is not deprecated yet),
 * `deprecated` (announced for shutdown, still served), `retired` (the shutdown date has passed).
 */
import type { DeprecationEntry } from "../contract/snapshots/model-deprecations.ts";

export { DEPRECATION_STATUSES, type DeprecationEntry, deprecationEntrySchema, deprecationStatus } from "../contract/snapshots/model-deprecations.ts";

/** One provider: its deprecation page, the replacement ids its pages name, and its entries. */
export interface DeprecationProvider {
  provider: string;
  name: string;
  source: string;
  /** Model ids the provider's pages name as replacements; every non-null `replacement` must be one of them. */
  replacements: readonly string[];
  entries: readonly DeprecationEntry[];
}

const CHECKED = "2026-11-22";
const OPENAI = "https://developers.openai.com/api/docs/deprecations";
const ANTHROPIC = "https://platform.claude.com/docs/en/about-claude/model-deprecations";
const GOOGLE = "https://ai.google.dev/gemini-api/docs/deprecations";
const MISTRAL = "https://docs.mistral.ai/getting-started/models/models_overview/";

type Row = [model: string, status: DeprecationEntry["status"], announced: string | null, sunset: string | null, replacement: string | null];

function rows(provider: string, source: string, list: Row[]): DeprecationEntry[] {
  return list.map(([model, status, announced_date, sunset_date, replacement]) => ({
    provider, model, status, announced_date, sunset_date, replacement, source, checked: CHECKED,
  }));
}

/** The curated calendar, one block per provider. */
export const deprecationProviders: DeprecationProvider[] = [
  {
    provider: "openai",
    name: "OpenAI",
    source: OPENAI,
    replacements: ["gpt-4.1", "gpt-4.1-mini", "gpt-5-codex-mini", "gpt-5.1-chat-latest", "gpt-5.5"],
    entries: rows("openai", OPENAI, [
      ["gpt-4.5-preview", "retired", "2025-04-14", "2025-07-14", "gpt-4.1"],
      ["codex-mini-latest", "retired", "2025-11-17", "2026-01-16", "gpt-5-codex-mini"],
      ["chatgpt-4o-latest", "retired", "2025-11-18", "2026-02-17", "gpt-5.1-chat-latest"],
      ["gpt-3.5-turbo-0125", "retired", "2026-04-22", "2026-10-23", "gpt-4.1-mini"],
      ["gpt-5.2-chat-latest", "retired", "2026-05-08", "2026-08-10", "gpt-5.5"],
      ["gpt-5.3-chat-latest", "retired", "2026-05-08", "2026-08-10", "gpt-5.5"],
      ["gpt-5", "deprecated", "2026-06-11", "2026-12-11", null],
      ["gpt-5-2025-08-07", "deprecated", "2026-06-11", "2026-12-11", null],
      ["gpt-5-mini", "deprecated", "2026-06-11", "2026-12-11", null],
      ["gpt-5-nano", "deprecated", "2026-06-11", "2026-12-11", null],
    ]),
  },
  {
    provider: "anthropic",
    name: "Anthropic",
    source: ANTHROPIC,
    replacements: [],
    entries: rows("anthropic", ANTHROPIC, [
      ["claude-1.3", "retired", "2024-09-04", "2024-11-06", null],
      ["claude-instant-1.2", "retired", "2024-09-04", "2024-11-06", null],
      ["claude-2.0", "retired", "2025-01-21", "2025-07-21", null],
      ["claude-2.1", "retired", "2025-01-21", "2025-07-21", null],
      ["claude-3-sonnet-20240229", "retired", "2025-01-21", "2025-07-21", null],
      ["claude-3-opus-20240229", "retired", "2025-06-30", "2026-01-05", null],
      ["claude-3-5-sonnet-20240620", "retired", "2025-08-13", "2025-10-22", null],
      ["claude-3-7-sonnet-20250219", "retired", "2025-10-28", "2026-02-19", null],
    ]),
  },
  {
    provider: "google",
    name: "Google (Gemini API)",
    source: GOOGLE,
    replacements: ["gemini-2.5-flash-native-audio-preview-12-2025", "imagen-4.0-generate-001", "gemini-3.1-pro-preview"],
    entries: rows("google", GOOGLE, [
      ["imagen-3.0-generate-002", "retired", null, "2025-11-10", "imagen-4.0-generate-001"],
      ["gemini-2.5-pro-preview-03-25", "retired", null, "2025-12-02", null],
      ["gemini-2.5-pro-preview-05-06", "retired", null, "2025-12-02", null],
      ["gemini-2.5-pro-preview-06-05", "retired", null, "2025-12-02", null],
      ["gemini-2.0-flash-live-001", "retired", null, "2025-12-09", "gemini-2.5-flash-native-audio-preview-12-2025"],
      ["gemini-3-pro-preview", "retired", null, "2026-03-09", "gemini-3.1-pro-preview"],
    ]),
  },
  {
    provider: "mistral",
    name: "Mistral AI",
    source: MISTRAL,
    replacements: ["codestral-2508"],
    entries: rows("mistral", MISTRAL, [
      ["codestral-2501", "retired", "2025-11-06", "2025-11-30", "codestral-2508"],
      ["pixtral-12b-2409", "retired", "2025-12-02", "2025-12-31", null],
    ]),
  },
];
