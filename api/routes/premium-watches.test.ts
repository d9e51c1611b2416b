/**
 * The watch routes' body schema and texts: a caller-chosen whsec_ secret must be canonical padded standard
 * base64 (else 400 invalid_body before any charge), and the DELETE description says what the worker does.
 */
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { ZodError } from "zod";
import { invalidInput, toErrorParts } from "../http/errors.ts";
import { premiumWatchesRoutes, RegisterWatchBody } from "./premium-watches.ts";

const base = { spec: { type: "digest", cadence: "daily" }, callback_url: "https://hooks.example.com/agentfeed" };

/** The HTTP answer the app gives for a body that fails the schema (api/app.ts parseBody). */
function answerFor(body: unknown): { status: number; body: Record<string, unknown> } | "accepted" {
  const parsed = RegisterWatchBody.safeParse(body);
  if (parsed.success) return "accepted";
  expect(parsed.error).toBeInstanceOf(ZodError);
  const parts = toErrorParts(invalidInput("body", parsed.error));
  return { status: parts.status, body: parts.body };
}

describe("RegisterWatchBody secret", () => {
  it("refuses a whsec_ secret that is not canonical padded standard base64: 400 invalid_body saying the expected form", () => {
    for (const secret of ["whsec_GRV8U6emhPBdnoV5oNsshxGVaas", "whsec_9-66QUsJRQ8RlnFyRDE_17CrMH0", "whsec_GRV8U6emhPBdnoV5oNsshxGVaat="]) {
      const answer = answerFor({ ...base, secret });
      expect(answer, secret).toMatchObject({ status: 400, body: { ok: false, error: "invalid_body" } });
      if (answer !== "accepted") expect(answer.body.message, secret).toMatch(/^body secret: .*whsec_.*canonical padded standard base64/);
    }
  });

  it("refuses a whsec_ secret whose key is shorter than 16 bytes", () => {
    const answer = answerFor({ ...base, secret: `whsec_${randomBytes(15).toString("base64")}` });
    expect(answer).toMatchObject({ status: 400, body: { error: "invalid_body" } });
    if (answer !== "accepted") expect(answer.body.message).toMatch(/at least 16 bytes/);
  });

  it("accepts a canonical whsec_ secret, a plain secret, and none", () => {
    expect(answerFor({ ...base, secret: `whsec_${randomBytes(32).toString("base64")}` })).toBe("accepted");
    expect(answerFor({ ...base, secret: `whsec_${randomBytes(16).toString("base64")}` })).toBe("accepted");
    expect(answerFor({ ...base, secret: "plain-secret-of-agent" })).toBe("accepted");
    expect(answerFor({ ...base, secret: "GRV8U6emhPBdnoV5oNsshxGVaas" })).toBe("accepted");
    expect(answerFor(base)).toBe("accepted");
  });

  it("keeps the length and character rules", () => {
    expect(answerFor({ ...base, secret: "short" })).toMatchObject({ status: 400 });
    expect(answerFor({ ...base, secret: "has a space in it ok" })).toMatchObject({ status: 400 });
  });
});

describe("watch route descriptions", () => {
  const route = (method: string, path: string) => premiumWatchesRoutes.find((r) => r.method === method && r.path === path)!;

  it("POST describes the whsec_ secret form", () => {
    expect(route("POST", "/api/premium/watches").description).toMatch(/starting with whsec_ must continue with canonical padded standard base64/);
  });

  it("DELETE says queued deliveries are dropped unsent, not sent", () => {
    const text = route("DELETE", "/api/premium/watches/:id").description ?? "";
    expect(text).not.toMatch(/still sent/);
    expect(text).toMatch(/dropped unsent/);
  });
});
