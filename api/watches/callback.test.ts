import { describe, expect, it } from "vitest";
import { checkCallbackAtRegistration } from "./callback.ts";

describe("checkCallbackAtRegistration", () => {
  it("accepts http and https URLs and returns them normalized", () => {
    expect(checkCallbackAtRegistration("https://Hooks.Example.com/a?b=1")).toBe("https://hooks.example.com/a?b=1");
    expect(checkCallbackAtRegistration("http://example.org:8080")).toBe("http://example.org:8080/");
  });

  it.each([
    ["ftp://example.com/x", "http or https"],
    ["file:///etc/passwd", "http or https"],
    ["javascript:alert(1)", "http or https"],
    ["https://user:pw@example.com/", "user name or password"],
    ["https://user@example.com/", "user name or password"],
    ["/relative/path", "absolute URL"],
    ["", "required"],
    [`https://example.com/${"a".repeat(2040)}`, "longer than 2048"],
  ])("refuses %s with 400 invalid_callback_url", (url, why) => {
    expect(() => checkCallbackAtRegistration(url)).toThrow(expect.objectContaining({ status: 400, code: "invalid_callback_url", message: expect.stringContaining(why) }));
  });
});
