import { describe, expect, it } from "vitest";
import { PROVIDER_ALIASES, providerNameKey, providerNames, resolveProviderName } from "./provider-aliases.ts";

describe("provider aliases", () => {
  it("compares names by letters and digits only", () => {
    expect(providerNameKey("Together AI")).toBe("togetherai");
    expect(providerNameKey("x.ai")).toBe("xai");
    expect(providerNameKey("  ")).toBe("");
  });

  it("resolves ids, product names and domains to the provider id", () => {
    expect(resolveProviderName("Claude")).toBe("anthropic");
    expect(resolveProviderName("gemini")).toBe("google");
    expect(resolveProviderName("X.AI")).toBe("xai");
    expect(resolveProviderName("azure openai")).toBe("azure-openai");
    expect(resolveProviderName("together-ai")).toBe("together");
    expect(resolveProviderName("OPENAI")).toBe("openai");
  });

  it("prefers an id the caller knows, and returns undefined for an unknown or empty name", () => {
    expect(resolveProviderName("new-lab", ["new-lab"])).toBe("new-lab");
    expect(resolveProviderName("New Lab", ["new-lab"])).toBe("new-lab");
    expect(resolveProviderName("nobody-ai")).toBeUndefined();
    expect(resolveProviderName("--")).toBeUndefined();
  });

  it("gives every name of an id, the id itself for an unknown one", () => {
    expect(providerNames("xai")).toEqual(["xai", ...PROVIDER_ALIASES["xai"]!]);
    expect(providerNames("zzz")).toEqual(["zzz"]);
  });
});
