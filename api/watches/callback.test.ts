import { describe, expect, it } from "vitest";
import { checkCallbackAtRegistration, checkCallbackForRegistration } from "./callback.ts";

describe("checkCallbackAtRegistration", () => {
  it("accepts http and https URLs and returns them normalized", () => {
    expect(checkCallbackAtRegistration("https://Hooks.Example.com/a?b=1")).toBe("https://hooks.example.com/a?b=1");
    expect(checkCallbackAtRegistration("http://example.org:8080")).toBe("http://example.org:8080/");
    expect(checkCallbackAtRegistration("http://example.org:65535/x")).toBe("http://example.org:65535/x");
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
    ["http://127.0.0.1:0/", "port 0"],
    ["https://example.com:0/hook", "port 0"],
    ["http://127.0.0.1:99999/", "port 99999, above 65535"],
  ])("refuses %s with 400 invalid_callback_url", (url, why) => {
    expect(() => checkCallbackAtRegistration(url)).toThrow(expect.objectContaining({ status: 400, code: "invalid_callback_url", message: expect.stringContaining(why) }));
  });
});

describe("checkCallbackForRegistration", () => {
  const lookup = async (host: string) => (host === "inside.test" ? [{ address: "10.1.2.3", family: 4 as const }] : Promise.reject(Object.assign(new Error("ENOTFOUND"), { code: "ENOTFOUND" })));
  it("refuses loopback, metadata and names that resolve to private addresses; accepts a name that does not resolve yet", async () => {
    for (const url of ["http://127.0.0.1:8080/hook", "http://2130706433/", "http://169.254.169.254/latest", "https://inside.test/hook", "http://[::ffff:10.0.0.1]/"]) {
      await expect(checkCallbackForRegistration(url, { allowPrivate: false, lookup }), url).rejects.toMatchObject({ status: 400, code: "callback_not_public" });
    }
    await expect(checkCallbackForRegistration("https://not-yet.test/hook", { allowPrivate: false, lookup })).resolves.toBe("https://not-yet.test/hook");
    await expect(checkCallbackForRegistration("ftp://x.test/", { allowPrivate: false, lookup })).rejects.toMatchObject({ code: "invalid_callback_url" });
  });
  it("allows private addresses when WATCHES_ALLOW_PRIVATE_CALLBACKS is on, never cloud metadata", async () => {
    await expect(checkCallbackForRegistration("http://127.0.0.1:8080/hook", { allowPrivate: true, lookup })).resolves.toBe("http://127.0.0.1:8080/hook");
    await expect(checkCallbackForRegistration("http://169.254.169.254/", { allowPrivate: true, lookup })).rejects.toMatchObject({ status: 400 });
  });
});
