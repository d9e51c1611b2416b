/**
 * Server configuration, read once from the environment and checked with zod. A bad value fails at start
 * with a message naming the variable and the value.
 */
import proxyaddr from "proxy-addr";
import { parseSeed } from "./billing/receipt-key.ts";
import { envIssueLine } from "./config-issue.ts";
import { z } from "zod";

/** The validated configuration of one server process. */
export interface ApiConfig {
  port: number;
  host: string;
  /** No trailing slash. */
  publicBaseUrl: string;
  snapshotsDir: string;
  /** Requests per minute per client IP on free routes; 0 turns the limiter off. */
  rateLimitPerMinute: number;
  /** TRUST_PROXY as given (proxy-addr syntax), or null to trust no proxy. */
  trustProxy: string | null;
  /** PREMIUM_BILLING (default on); off serves premium routes without a token, billing or receipts. */
  premiumBilling: boolean;
  /** PAYMENT_RATE_LIMIT_PER_MINUTE: payment POSTs and unknown-token requests per client per minute; 0 turns it off. */
  paymentRateLimitPerMinute: number;
  /** WATCHES_ALLOW_PRIVATE_CALLBACKS (default off): webhooks may go to loopback and private addresses. */
  allowPrivateCallbacks: boolean;
  /** WAREHOUSE_MEMORY_MB (default 96): the warehouse reader's DuckDB memory limit; held rows past it spill to a temp folder. */
  warehouseMemoryMb: number;
}

/** Thrown when an environment variable has a bad value. */
export class ConfigError extends Error {
  override name = "ConfigError";
}

const intFrom = (name: string, def: number, min: number, max: number) =>
  z
    .string()
    .trim()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === "") return def;
      if (!/^\d+$/.test(v)) {
        ctx.addIssue({ code: "custom", message: `${name} must be an integer, got ${JSON.stringify(v)}` });
        return z.NEVER;
      }
      const n = Number(v);
      if (n < min || n > max) {
        ctx.addIssue({ code: "custom", message: `${name} must be between ${min} and ${max}, got ${n}` });
        return z.NEVER;
      }
      return n;
    });

const EnvSchema = z.object({
  PORT: intFrom("PORT", 3000, 0, 65535),
  HOST: z
    .string()
    .trim()
    .min(1, "HOST must not be empty")
    .optional()
    .transform((v) => v ?? "127.0.0.1"),
  PUBLIC_BASE_URL: z
    .string()
    .trim()
    .optional()
    .refine((v) => v === undefined || v === "" || /^https?:\/\/[^\s/]+(\/[^\s]*)?$/.test(v), {
      message: "PUBLIC_BASE_URL must be an absolute http(s) URL such as https://agentfeed.example",
    }),
  SNAPSHOTS_DIR: z
    .string()
    .trim()
    .optional()
    .transform((v) => (v ? v : "snapshots")),
  RATE_LIMIT_PER_MINUTE: intFrom("RATE_LIMIT_PER_MINUTE", 120, 0, 1_000_000),
  PREMIUM_BILLING: z
    .string()
    .trim()
    .toLowerCase()
    .optional()
    .refine((v) => v === undefined || v === "" || v === "on" || v === "off", { message: "PREMIUM_BILLING must be on or off" })
    .transform((v) => v !== "off"),
  PAYMENT_RATE_LIMIT_PER_MINUTE: intFrom("PAYMENT_RATE_LIMIT_PER_MINUTE", 30, 0, 1_000_000),
  WAREHOUSE_MEMORY_MB: intFrom("WAREHOUSE_MEMORY_MB", 96, 32, 1_048_576),
  WATCHES_ALLOW_PRIVATE_CALLBACKS: z
    .string()
    .trim()
    .toLowerCase()
    .optional()
    .refine((v) => v === undefined || ["", "0", "1", "on", "off", "true", "false"].includes(v), {
      message: "WATCHES_ALLOW_PRIVATE_CALLBACKS must be 1 or 0",
    })
    .transform((v) => v === "1" || v === "on" || v === "true"),
  RECEIPT_SIGNING_KEY: z
    .string()
    .optional()
    .superRefine((v, ctx) => {
      if (v === undefined || v.trim() === "") return;
      try {
        parseSeed(v);
      } catch (err) {
        ctx.addIssue({ code: "custom", message: (err as Error).message });
      }
    }),
  TRUST_PROXY: z
    .string()
    .trim()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === "") return null;
      try {
        proxyaddr.compile(splitTrust(v));
      } catch (cause) {
        ctx.addIssue({
          code: "custom",
          message: `TRUST_PROXY must be a comma list of addresses, CIDRs or loopback/linklocal/uniquelocal, got ${JSON.stringify(v)} (${(cause as Error).message})`,
        });
        return z.NEVER;
      }
      return v;
    }),
});

/** Split a TRUST_PROXY value into the list proxy-addr compiles. */
export function splitTrust(value: string): string[] {
  return value
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
}

/** Read and validate the configuration from an environment object (process.env by default). */
export function loadConfig(env: Record<string, string | undefined> = process.env): ApiConfig {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    // One line, so `npm start` fails with one line.
    const problems = parsed.error.issues.map((i) => envIssueLine(i, env));
    throw new ConfigError(`invalid configuration: ${problems.join("; ")}`);
  }
  const e = parsed.data;
  const base = e.PUBLIC_BASE_URL ? e.PUBLIC_BASE_URL : `http://localhost:${e.PORT}`;
  return {
    port: e.PORT,
    host: e.HOST,
    publicBaseUrl: base.replace(/\/+$/, ""),
    snapshotsDir: e.SNAPSHOTS_DIR,
    rateLimitPerMinute: e.RATE_LIMIT_PER_MINUTE,
    trustProxy: e.TRUST_PROXY,
    premiumBilling: e.PREMIUM_BILLING,
    paymentRateLimitPerMinute: e.PAYMENT_RATE_LIMIT_PER_MINUTE,
    allowPrivateCallbacks: e.WATCHES_ALLOW_PRIVATE_CALLBACKS,
    warehouseMemoryMb: e.WAREHOUSE_MEMORY_MB,
  };
}
