import { describe, expect, it } from "vitest";
import { ApiError } from "../registry/types.ts";
import { bearerOf } from "./balance.ts";

const withAuthorization = (value?: string): Request =>
  new Request("http://localhost/api/payment/balance", value === undefined ? {} : { headers: { authorization: value } });

const refusal = (value: string): string => {
  try {
    bearerOf(withAuthorization(value));
  } catch (err) {
    if (err instanceof ApiError) return `${err.status} ${err.code}: ${err.message}`;
    throw err;
  }
  throw new Error(`${value} was accepted`);
};

describe("bearerOf", () => {
  it("reads Bearer <token> in any case and the token alone", () => {
    expect(bearerOf(withAuthorization())).toBeUndefined();
    expect(bearerOf(withAuthorization("Bearer afk_1"))).toBe("afk_1");
    expect(bearerOf(withAuthorization("bearer   afk_1  "))).toBe("afk_1");
    expect(bearerOf(withAuthorization("afk_1"))).toBe("afk_1");
  });

  it("refuses another scheme, or more than a token after Bearer, with a 401 that says which", () => {
    expect(refusal("Basic dXNlcjpwYXNz")).toBe('401 invalid_token: the Authorization header must be "Bearer <token>" (one token, nothing after it); got the Basic scheme');
    expect(refusal("Bearer afk_1 afk_2")).toMatch(/got more than one word after Bearer$/);
    expect(refusal("<script> x")).toMatch(/got another form$/);
  });
});
