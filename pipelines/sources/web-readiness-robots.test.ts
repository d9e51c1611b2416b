import { describe, expect, it } from "vitest";
import { mayFetch, parseRobots, scanGroups } from "./web-readiness-robots.ts";

const O = "https://example.com";
const access = (body: string, bot: string) => parseRobots(O, body).access(bot);

describe("parseRobots (RFC 9309)", () => {
  it("blocks a bot named in its own group with Disallow: /", () => {
    const body = "User-agent: *\nDisallow: /ads/\n\nUser-agent: GPTBot\nDisallow: /\n";
    expect(access(body, "GPTBot")).toBe("blocked");
    expect(access(body, "ClaudeBot")).toBe("allowed");
  });

  it("matches the product token case-insensitively and ignores a version suffix", () => {
    expect(access("User-agent: gptbot/1.2\nDisallow: /\n", "GPTBot")).toBe("blocked");
  });

  it("does not prefix-match: Googlebot rules say nothing of Google-Extended", () => {
    expect(access("User-agent: Googlebot\nDisallow: /\n", "Google-Extended")).toBe("allowed");
  });

  it("uses the most specific group only: a named group replaces the * group", () => {
    const body = "User-agent: *\nDisallow: /\n\nUser-agent: CCBot\nAllow: /\n";
    expect(access(body, "CCBot")).toBe("allowed");
    expect(access(body, "GPTBot")).toBe("blocked");
  });

  it("merges several groups naming the same agent", () => {
    const body = "User-agent: GPTBot\nAllow: /public/\n\nUser-agent: *\nDisallow: /x\n\nUser-agent: GPTBot\nDisallow: /\n";
    expect(access(body, "GPTBot")).toBe("partial");
  });

  it("lets consecutive user-agent lines share one group", () => {
    const body = "User-agent: GPTBot\nUser-agent: ClaudeBot\nDisallow: /\n";
    expect(access(body, "ClaudeBot")).toBe("blocked");
    expect(access(body, "GPTBot")).toBe("blocked");
  });

  it("prefers Allow over Disallow on a tie of equal length, the longest match otherwise", () => {
    expect(mayFetch(O, "User-agent: *\nDisallow: /page\nAllow: /page\n", "x", "/page")).toBe(true);
    expect(mayFetch(O, "User-agent: *\nAllow: /p\nDisallow: /page\n", "x", "/page")).toBe(false);
    expect(mayFetch(O, "User-agent: *\nDisallow: /p\nAllow: /page\n", "x", "/page")).toBe(true);
    expect(mayFetch(O, "User-agent: *\nDisallow: /*.json$\n", "x", "/a.json")).toBe(false);
    expect(mayFetch(O, "User-agent: *\nDisallow: /*.json$\n", "x", "/a.json5")).toBe(true);
  });

  it("calls a root block with Allow exceptions partial", () => {
    expect(access("User-agent: PerplexityBot\nDisallow: /\nAllow: /press/\n", "PerplexityBot")).toBe("partial");
  });

  it("calls a restriction aimed at the bot partial but the * group's housekeeping allowed", () => {
    expect(access("User-agent: ClaudeBot\nDisallow: /archive/\n", "ClaudeBot")).toBe("partial");
    expect(access("User-agent: *\nDisallow: /ads/\n", "ClaudeBot")).toBe("allowed");
  });

  it("treats an empty Disallow as allow-all", () => {
    expect(access("User-agent: *\nDisallow: /\n\nUser-agent: GPTBot\nDisallow:\n", "GPTBot")).toBe("allowed");
  });

  it("fixes the library: a rule-less group at the end of the file allows its agents instead of falling back to *", () => {
    const body = "User-agent: *\nDisallow: /\n\nUser-agent: Applebot-Extended\n";
    expect(access(body, "Applebot-Extended")).toBe("allowed");
    expect(mayFetch(O, body, "Applebot-Extended", "/")).toBe(true);
  });

  it("fixes the library: a leading byte-order mark does not hide the first group", () => {
    expect(access("\uFEFFUser-agent: GPTBot\nDisallow: /\n", "GPTBot")).toBe("blocked");
  });

  it("ignores rules before any user-agent line, comments and unknown lines", () => {
    const body = "Disallow: /\n# User-agent: GPTBot\nFoo: bar\nUser-agent: *\nAllow: /\n";
    expect(access(body, "GPTBot")).toBe("allowed");
    expect(scanGroups(body)).toEqual([{ agents: ["*"], rules: [{ allow: true, pattern: "/" }] }]);
  });

  it("allows everything for an empty file", () => {
    expect(access("", "GPTBot")).toBe("allowed");
  });
});
