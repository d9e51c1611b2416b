/**
 * The payee wallets an x402 discovery document names (`/.well-known/x402`). Two formats are read: x402 v2
 * (`{ x402Version: 2, items: [{ resource, accepts: [{ scheme, network: "eip155:8453", payTo, asset, amount }] }] }`)
 * and v1 (`accepts[].network` a name such as "base", `maxAmountRequired`; the list sometimes under `resources`).
 * Pure and tolerant: entries without a valid EVM address are skipped; addresses are checksummed; v1 network names
 * become CAIP-2 chain ids where known.
 */
import { getAddress, isAddress } from "viem";

/** x402 v1 network names and their CAIP-2 ids. */
export const V1_NETWORKS: Readonly<Record<string, string>> = {
  base: "eip155:8453",
  "base-sepolia": "eip155:84532",
  avalanche: "eip155:43114",
  "avalanche-fuji": "eip155:43113",
  polygon: "eip155:137",
  "polygon-amoy": "eip155:80002",
  ethereum: "eip155:1",
  sei: "eip155:1329",
  "sei-testnet": "eip155:1328",
  iotex: "eip155:4689",
};

/** Payee entries kept per document at most. */
export const MAX_PAYEES = 20;

export interface X402Payee {
  /** Checksummed EVM address. */
  payTo: string;
  /** CAIP-2 chain id (eip155:8453), or the v1 name when it is not a known one. */
  network: string;
}

function network(value: unknown): string | null {
  if (typeof value !== "string") return null;
  const v = value.trim();
  if (/^eip155:\d{1,12}$/.test(v)) return v;
  const known = V1_NETWORKS[v.toLowerCase()];
  if (known) return known;
  return /^[a-z0-9-]{1,40}$/i.test(v) ? v.toLowerCase() : null;
}

/** Add the valid (payTo, network) pairs of an `accepts` list to `out`. */
function addAccepts(out: Map<string, X402Payee>, accepts: unknown): void {
  if (!Array.isArray(accepts)) return;
  for (const a of accepts.slice(0, 20)) {
    if (typeof a !== "object" || a === null) continue;
    const r = a as Record<string, unknown>;
    const to = typeof r["payTo"] === "string" ? r["payTo"].trim() : "";
    const net = network(r["network"]);
    if (net === null || !isAddress(to, { strict: false })) continue;
    const payTo = getAddress(to);
    out.set(`${payTo}|${net}`, { payTo, network: net });
  }
}

const sorted = (out: Map<string, X402Payee>) => [...out.values()].sort((a, b) => a.payTo.localeCompare(b.payTo) || a.network.localeCompare(b.network)).slice(0, MAX_PAYEES);

function parseObject(text: string): Record<string, unknown> | null {
  try {
    const v: unknown = JSON.parse(text);
    return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** The distinct (payTo, network) pairs of a discovery document, sorted; [] for anything that is not one. */
export function x402Payees(body: string): X402Payee[] {
  const o = parseObject(body);
  if (o === null) return [];
  const items = Array.isArray(o["items"]) ? o["items"] : Array.isArray(o["resources"]) ? o["resources"] : [];
  const out = new Map<string, X402Payee>();
  for (const item of items.slice(0, 500)) {
    if (typeof item === "object" && item !== null) addAccepts(out, (item as Record<string, unknown>)["accepts"]);
  }
  return sorted(out);
}

/** Largest PAYMENT-REQUIRED header decoded (base64 of a PaymentRequired object). */
export const MAX_CHALLENGE_HEADER = 16_384;

/**
 * The payees a 402 challenge names: x402 v2 in the PAYMENT-REQUIRED header (base64 JSON of a PaymentRequired
 * object), x402 v1 in the JSON body (`{ x402Version: 1, accepts: [...] }`); both read when both are present.
 */
export function x402ChallengePayees(paymentRequired: string | null, body: string): X402Payee[] {
  const out = new Map<string, X402Payee>();
  if (paymentRequired !== null && paymentRequired.length <= MAX_CHALLENGE_HEADER) {
    const decoded = parseObject(Buffer.from(paymentRequired.trim(), "base64").toString("utf8"));
    if (decoded !== null && typeof decoded["x402Version"] === "number") addAccepts(out, decoded["accepts"]);
  }
  const o = parseObject(body);
  if (o !== null && typeof o["x402Version"] === "number") addAccepts(out, o["accepts"]);
  return sorted(out);
}

/** Up to `max` distinct http(s) resource URLs of a discovery document on `domain` itself or its subdomains. */
export function x402OwnResources(body: string, domain: string, max: number): string[] {
  const o = parseObject(body);
  if (o === null) return [];
  const items = Array.isArray(o["items"]) ? o["items"] : Array.isArray(o["resources"]) ? o["resources"] : [];
  const site = domain.toLowerCase();
  const out: string[] = [];
  for (const item of items.slice(0, MAX_RESOURCES)) {
    const resource = typeof item === "object" && item !== null ? (item as Record<string, unknown>)["resource"] : undefined;
    if (typeof resource !== "string") continue;
    let url: URL;
    try {
      url = new URL(resource);
    } catch {
      continue;
    }
    const host = url.hostname.toLowerCase();
    if ((url.protocol !== "https:" && url.protocol !== "http:") || (host !== site && !host.endsWith(`.${site}`)) || out.includes(url.href)) continue;
    out.push(url.href);
    if (out.length >= max) break;
  }
  return out;
}

/** What a discovery document offers, as the registry series counts it. */
export interface X402Resources {
  /** Resources with at least one payment option of a positive amount. */
  paid: number;
  /** Resources offered without payment (no option, or only options of amount 0). */
  free: number;
  /** Whether the document lists a resource on another site than `domain` (a registry of others' endpoints). */
  federated: boolean;
  /** How many resources the document says it holds (`pagination.total`), null when it does not say. */
  total: number | null;
  /**
   * False when paid + free counts fewer resources than there are: `pagination.total` is larger than the items
   * on this page, or the page lists more than MAX_RESOURCES. The counts are then a lower bound.
   */
  complete: boolean;
}

/** Resources kept per document at most (larger documents are counted up to it). */
export const MAX_RESOURCES = 500;

function positiveAmount(option: Record<string, unknown>): boolean {
  // v2 names it amount, v1 maxAmountRequired: atomic units as a decimal string.
  const value = option["amount"] ?? option["maxAmountRequired"];
  const text = typeof value === "number" ? String(value) : typeof value === "string" ? value.trim() : "";
  return /^\d{1,78}$/.test(text) && /[1-9]/.test(text);
}

function hostOf(resource: unknown): string | null {
  if (typeof resource !== "string") return null;
  try {
    return new URL(resource).hostname.toLowerCase();
  } catch {
    return null;
  }
}

/** Count a discovery document's paid and free resources and tell whether it lists other sites'; null for anything that is not one. */
export function x402Resources(body: string, domain: string): X402Resources | null {
  let doc: unknown;
  try {
    doc = JSON.parse(body);
  } catch {
    return null;
  }
  if (typeof doc !== "object" || doc === null || Array.isArray(doc)) return null;
  const o = doc as Record<string, unknown>;
  const items = Array.isArray(o["items"]) ? o["items"] : Array.isArray(o["resources"]) ? o["resources"] : null;
  if (items === null) return null;
  const site = domain.toLowerCase();
  // Only this first page is read: the surface check makes one request per site and follows no links. A document
  // that says it holds more (pagination.total) is counted as partial instead of being taken as the whole list.
  const pagination = typeof o["pagination"] === "object" && o["pagination"] !== null ? (o["pagination"] as Record<string, unknown>) : {};
  const listed = pagination["total"];
  const total = typeof listed === "number" && Number.isSafeInteger(listed) && listed >= 0 ? listed : null;
  const counted = Math.min(items.length, MAX_RESOURCES);
  const out: X402Resources = { paid: 0, free: 0, federated: false, total, complete: items.length <= MAX_RESOURCES && (total === null || total <= counted) };
  for (const item of items.slice(0, MAX_RESOURCES)) {
    if (typeof item !== "object" || item === null) continue;
    const r = item as Record<string, unknown>;
    const accepts = Array.isArray(r["accepts"]) ? (r["accepts"] as unknown[]).filter((a): a is Record<string, unknown> => typeof a === "object" && a !== null) : [];
    if (accepts.some(positiveAmount)) out.paid += 1;
    else out.free += 1;
    const host = hostOf(r["resource"]);
    if (host !== null && host !== site && !host.endsWith(`.${site}`)) out.federated = true;
  }
  return out;
}
