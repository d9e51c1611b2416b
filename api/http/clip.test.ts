import { describe, expect, it } from "vitest";
import { clip, ECHO_MAX, visible } from "./clip.ts";

describe("clip and visible", () => {
  it("replaces control, bidi, zero-width and separator characters and lone surrogates, keeping other text", () => {
    expect(visible("a\u0000b\u001b[31mc\u007f\u0085d\u202ee\u200bf\u2028g\u2029h\ud800i")).toBe("a?b?[31mc??d?e?f?g?h?i");
    expect(visible("<script>é 🙂 中文</script>")).toBe("<script>é 🙂 中文</script>");
  });

  it("cuts after making the text visible, naming the full length", () => {
    expect(clip("x".repeat(ECHO_MAX))).toBe("x".repeat(ECHO_MAX));
    expect(clip(`\u202e${"y".repeat(300)}`)).toBe(`?${"y".repeat(ECHO_MAX - 1)}… (301 characters)`);
  });
});
