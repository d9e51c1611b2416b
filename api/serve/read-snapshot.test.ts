import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ApiError, type LoadedSnapshot, type SnapshotMeta, type SnapshotReader } from "../registry/types.ts";
import { lastSuccessOf, readSnapshot, renderSnapshot } from "./read-snapshot.ts";

const meta = (over: Partial<SnapshotMeta> = {}): SnapshotMeta => ({
  type: "t", date: "2026-11-22", lastSuccess: "2026-11-22T10:00:00.000Z", lastAttempt: null, lastChanged: null, lastError: null,
  rows: 1, provenance: "replay", slaSeconds: 60, cadence: "often", sources: [], ...over,
});
const reader = (snap: LoadedSnapshot | undefined): SnapshotReader => ({
  get: <T,>() => snap as LoadedSnapshot<T> | undefined,
  types: () => [],
  dates: () => [],
  dated: async () => undefined,
});

describe("readSnapshot()", () => {
  it("readSnapshot() answers 503 snapshot_unavailable when the type is missing or fails its schema", () => {
    const schema = z.strictObject({ n: z.number() });
    expect(() => readSnapshot(reader(undefined), "t", schema)).toThrow(ApiError);
    expect(() => readSnapshot(reader({ type: "t", data: { n: "x" }, meta: meta() }), "t", schema)).toThrow(/does not match its schema/);
  });

  it("readSnapshot() checks one loaded body once per schema, and a new body again", () => {
    let parses = 0;
    const schema = z.strictObject({ n: z.number() }).transform((v) => {
      parses += 1;
      return v;
    });
    const first = { type: "t", data: { n: 1 }, meta: meta() };
    expect(readSnapshot(reader(first), "t", schema).data).toEqual({ n: 1 });
    expect(readSnapshot(reader(first), "t", schema).data).toEqual({ n: 1 });
    expect(parses).toBe(1);
    expect(readSnapshot(reader({ ...first, data: { n: 2 } }), "t", schema).data).toEqual({ n: 2 });
    expect(parses).toBe(2);
  });

  it("lastSuccessOf() and renderSnapshot() read the manifest's last success", () => {
    const snap = { type: "t", data: { n: 1 }, meta: meta() };
    expect(lastSuccessOf(snap)).toBe("2026-11-22T10:00:00.000Z");
    expect(() => lastSuccessOf({ ...snap, meta: meta({ lastSuccess: null }) })).toThrow(/no successful run/);
    expect(renderSnapshot(reader(snap), { type: "t", schema: z.strictObject({ n: z.number() }) })).toEqual({ ok: true, snapshot: { n: 1 }, updated: "2026-11-22T10:00:00.000Z" });
  });
});
