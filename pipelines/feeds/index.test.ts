import { describe, expect, it } from "vitest";
import { snapshotTypes } from "../contract/snapshots/index.ts";
import { feeds } from "./index.ts";

describe("feeds", () => {
  it("feeds lists every contract snapshot type once, each feed carrying its contract's declarations", () => {
    expect(Object.keys(feeds).sort()).toEqual(Object.keys(snapshotTypes).sort());
    for (const [key, contract] of Object.entries(snapshotTypes)) {
      const feed = feeds[key as keyof typeof feeds];
      expect(feed.type, key).toBe(key);
      expect({ type: feed.type, title: feed.title, cron: feed.cron, cadence: feed.cadence, slaSeconds: feed.slaSeconds, schema: feed.schema }, key).toEqual(contract);
      expect(feed.schema, key).toBe(contract.schema);
    }
  });
});
