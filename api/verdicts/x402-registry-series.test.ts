import { describe, expect, it } from "vitest";
import { registrySeries, type RegistryRowInput } from "./x402-registry-series.ts";

const ok = (date: string, domain: string, over: Partial<RegistryRowInput> = {}): RegistryRowInput => ({ date, domain, status: "ok", paid: 2, free: 1, federated: false, networks: ["eip155:8453"], fairTrade: false, ...over });
const err = (date: string, domain: string): RegistryRowInput => ({ date, domain, status: "error", paid: null, free: null, federated: null, networks: [], fairTrade: null });

const range = { from: "2026-11-02", to: "2026-11-16", days: 15 };
const crawlDays = ["2026-10-26", "2026-11-02", "2026-11-09", "2026-11-16"];
const rows: RegistryRowInput[] = [
  ok("2026-10-26", "a.example"),
  ok("2026-10-26", "b.example"),
  ok("2026-11-02", "a.example"),
  ok("2026-11-02", "b.example", { federated: true, networks: ["eip155:8453", "eip155:84532"], fairTrade: true }),
  ok("2026-11-02", "c.example", { paid: 10, free: 0 }),
  err("2026-11-02", "never.example"), // never read: not in the registry
  err("2026-11-09", "a.example"), // read before: an error entry
  ok("2026-11-09", "b.example", { federated: true }),
  ok("2026-11-09", "c.example", { paid: 10, free: 0 }),
  ok("2026-11-16", "a.example"),
  ok("2026-11-16", "c.example", { paid: 12, free: 0 }),
];
const firstOk = new Map([
  ["a.example", "2026-10-26"],
  ["b.example", "2026-10-26"],
  ["c.example", "2026-11-02"],
]);
const w = (...keys: string[]) => keys;
const wallets = new Map([
  ["2026-11-09", new Map([["b.example", w("0x1|eip155:8453")], ["c.example", w("0x3|eip155:8453")]])],
  ["2026-11-16", new Map([["a.example", w("0x9|eip155:8453")], ["c.example", w("0x4|eip155:8453")]])],
  ["2026-11-02", new Map([["a.example", w("0x9|eip155:8453")], ["b.example", w("0x1|eip155:8453")], ["c.example", w("0x3|eip155:8453")]])],
]);

describe("registrySeries()", () => {
  const s = registrySeries({ range, crawlDays, rows, firstOk, wallets });
  const point = (date: string) => s.points.find((p) => p.date === date)!;

  it("has one point per day; days without a crawl are has_data false with null figures", () => {
    expect(s.points).toHaveLength(15);
    expect(point("2026-11-03")).toMatchObject({ has_data: false, total: null, added: null, networks: [], added_sample: [] });
  });

  it("counts the registry of a crawl day, comparing with the crawl before the window", () => {
    expect(point("2026-11-02")).toMatchObject({
      has_data: true,
      total: 3,
      ok_count: 3,
      error_count: 0,
      federation_count: 1,
      network_count: 2,
      networks: ["eip155:8453", "eip155:84532"],
      paid_endpoints_total: 14,
      free_endpoints_total: 2,
      agent_fair_trade_count: 1,
      added: 1,
      removed: 0,
      status_flips: 0,
      added_sample: ["c.example"],
    });
  });

  it("keeps a domain read before as an error entry, counts its flips, and never lists a domain never read", () => {
    expect(point("2026-11-09")).toMatchObject({ total: 3, ok_count: 2, error_count: 1, status_flips: 1, added: 0, removed: 0, wallet_changes: 0 });
    expect(point("2026-11-16")).toMatchObject({ total: 2, ok_count: 2, error_count: 0, status_flips: 1, removed: 1, removed_sample: ["b.example"], wallet_changes: 1, wallet_change_sample: ["c.example"] });
  });

  it("compares the window's first and last crawl", () => {
    expect(s.delta_in_window).toEqual({ start_total: 3, end_total: 2, net: -1, start_ok: 3, end_ok: 2 });
    expect(s.notes.at(-1)).toMatch(/12 of 15/);
  });

  it("has null changes without an earlier crawl and a null delta without any crawl", () => {
    const first = registrySeries({ range, crawlDays: crawlDays.slice(1), rows, firstOk, wallets });
    expect(first.points.find((p) => p.date === "2026-11-02")).toMatchObject({ total: 3, added: null, removed: null, status_flips: null, wallet_changes: null });
    const none = registrySeries({ range, crawlDays: [], rows: [], firstOk: new Map(), wallets: new Map() });
    expect(none.points.every((p) => !p.has_data)).toBe(true);
    expect(none.delta_in_window).toEqual({ start_total: null, end_total: null, net: null, start_ok: null, end_ok: null });
  });

  it("leaves a total null, never a partial sum, when a document's resources were not recorded", () => {
    const unrecorded = rows.map((r) => (r.date === "2026-11-16" && r.domain === "a.example" ? { ...r, paid: null, free: null, federated: null, networks: null } : r));
    const p = registrySeries({ range, crawlDays, rows: unrecorded, firstOk, wallets }).points.find((x) => x.date === "2026-11-16")!;
    expect(p).toMatchObject({ total: 2, ok_count: 2, paid_endpoints_total: null, free_endpoints_total: null, federation_count: null, network_count: null });
  });

  it("leaves wallet changes null, never counted against an empty set, when a crawl did not record a document's contents", () => {
    // 2026-11-09's crawl recorded c.example's resources but no wallets day file exists for it: c.example's
    // unrecorded row before must not read as 'no wallets' (nor the next crawl's wallets as a change).
    const unrecorded = rows.map((r) => (r.date === "2026-11-09" && r.domain === "c.example" ? { ...r, paid: null, free: null, federated: null, networks: null } : r));
    const withoutDay = new Map([...wallets].filter(([d]) => d !== "2026-11-09"));
    const s2 = registrySeries({ range, crawlDays, rows: unrecorded, firstOk, wallets: withoutDay });
    expect(s2.points.find((x) => x.date === "2026-11-09")).toMatchObject({ wallet_changes: null, wallet_change_sample: [] });
    expect(s2.points.find((x) => x.date === "2026-11-16")).toMatchObject({ wallet_changes: null, wallet_change_sample: [], status_flips: 1 });
  });

  it("counts agent fair-trade documents only when every document's answer is known", () => {
    const unknown = rows.map((r) => (r.date === "2026-11-02" && r.domain === "a.example" ? { ...r, fairTrade: null } : r));
    expect(registrySeries({ range, crawlDays, rows: unknown, firstOk, wallets }).points.find((x) => x.date === "2026-11-02")!.agent_fair_trade_count).toBeNull();
    // An error entry (its document unreachable) never makes the count unknown: it is not a document of the day.
    expect(point("2026-11-09").agent_fair_trade_count).toBe(0);
  });
});
