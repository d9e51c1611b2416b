import { describe, expect, it } from "vitest";
import { isSurface, utf8Bytes } from "./web-readiness-surfaces.ts";

describe("isSurface", () => {
  it("llms.txt needs a markdown H1 and is never an HTML page", () => {
    expect(isSurface("llmsTxt", "# Example\n\n> Docs for agents\n")).toBe(true);
    expect(isSurface("llmsTxt", "<!DOCTYPE html><html><body>Not found</body></html>")).toBe(false);
    expect(isSurface("llmsTxt", "hello")).toBe(false);
  });
  it("ai.txt needs a field line", () => {
    expect(isSurface("aiTxt", "# Spawning AI\nUser-Agent: *\nDisallow: /\n")).toBe(true);
    expect(isSurface("aiTxt", "<html><body>x: y</body></html>")).toBe(false);
    expect(isSurface("aiTxt", "")).toBe(false);
  });
  it("agent.json needs a JSON object with a name", () => {
    expect(isSurface("agentJson", '{"name":"Support agent","url":"https://a.example/a2a"}')).toBe(true);
    expect(isSurface("agentJson", '{"name":""}')).toBe(false);
    expect(isSurface("agentJson", "[1]")).toBe(false);
    expect(isSurface("agentJson", "{")).toBe(false);
  });
  it("openapi needs an openapi or swagger version string", () => {
    expect(isSurface("openapi", '{"openapi":"3.1.0","info":{}}')).toBe(true);
    expect(isSurface("openapi", '{"swagger":"2.0"}')).toBe(true);
    expect(isSurface("openapi", '{"openapi":3}')).toBe(false);
  });
  it("x402 needs x402Version and an items or resources array", () => {
    expect(isSurface("x402", '{"x402Version":2,"items":[]}')).toBe(true);
    expect(isSurface("x402", '{"x402Version":1,"resources":[]}')).toBe(true);
    expect(isSurface("x402", '{"x402Version":"2","items":[]}')).toBe(false);
    expect(isSurface("x402", '{"x402Version":2}')).toBe(false);
  });
  it("counts UTF-8 bytes", () => {
    expect(utf8Bytes("é")).toBe(2);
  });
});
