import { describe, expect, it } from "vitest";
import { describeData, formatAge, startBanner } from "./start-banner.ts";

const now = new Date("2026-11-23T12:00:00Z");
const meta = (type: string, lastSuccess: string | null, provenance: "live" | "replay" = "replay") => ({ type, lastSuccess, provenance });

describe("startBanner()", () => {
  it("formatAge() reads minutes, hours, then days and hours", () => {
    expect(formatAge(59_000)).toBe("0 min");
    expect(formatAge(42 * 60_000)).toBe("42 min");
    expect(formatAge(5 * 3_600_000)).toBe("5 h");
    expect(formatAge(52 * 3_600_000)).toBe("2 d 4 h");
  });

  it("describeData() says bundled, replayed, and how old the newest snapshot is", () => {
    const line = describeData({
      snapshotsDir: "/srv/snapshots",
      bundled: true,
      now,
      snapshots: [meta("news", "2026-11-22T02:00:00Z"), meta("status", "2026-11-23T09:00:00Z"), meta("gpu", null)],
    });
    expect(line).toBe("bundled snapshots in /srv/snapshots: 3 types, replayed from recorded fixtures, newest 3 h old");
  });

  it("describeData() counts live and replayed types apart", () => {
    const line = describeData({
      snapshotsDir: "/d",
      bundled: false,
      now,
      snapshots: [meta("news", "2026-11-23T11:58:00Z", "live"), meta("status", null)],
    });
    expect(line).toBe("snapshots in /d: 2 types, 1 live, 1 replayed, newest 2 min old");
  });

  it("describeData() names the server's own folder beside the bundled one", () => {
    const line = describeData({
      snapshotsDir: "/srv/snapshots",
      bundled: true,
      localSnapshotsDir: "/srv/.data/snapshots",
      now,
      snapshots: [meta("news", "2026-11-22T02:00:00Z"), meta("status", "2026-11-23T11:55:00Z", "live")],
    });
    expect(line).toBe("bundled snapshots in /srv/snapshots and this server's own runs in /srv/.data/snapshots: 2 types, 1 live, 1 replayed, newest 5 min old");
  });

  it("startBanner() starts with the listening line and names state and payments", () => {
    const lines = startBanner({
      url: "http://127.0.0.1:3000",
      publicBaseUrl: "http://localhost:3000",
      snapshotsDir: "/d",
      bundled: false,
      snapshots: [],
      state: "embedded Postgres in /x/.data/pg, as the current user",
      payments: "off (BASE_RPC_URL and PUBLISHER_WALLET unset)",
      scheduler: false,
      now,
    });
    expect(lines[0]).toBe("agentfeed listening on http://127.0.0.1:3000 (public http://localhost:3000)");
    expect(lines[1]).toContain("no snapshots in /d yet");
    expect(lines[2]).toBe("  state:    embedded Postgres in /x/.data/pg, as the current user");
    expect(lines[3]).toBe("  payments: off (BASE_RPC_URL and PUBLISHER_WALLET unset)");
  });
});
