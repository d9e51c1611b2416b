import { describe, expect, it } from "vitest";
import { SingleFlight } from "./single-flight.ts";

/** A computation that resolves (or rejects) when the test says so, counting how often it was started. */
function gate<T>() {
  let open!: (value: T) => void;
  let fail!: (error: Error) => void;
  const calls = { n: 0 };
  const compute = () => {
    calls.n++;
    return new Promise<T>((resolve, reject) => {
      open = resolve;
      fail = reject;
    });
  };
  return { compute, calls, open: (v: T) => open(v), fail: (e: Error) => fail(e) };
}

describe("SingleFlight", () => {
  it("runs one computation for concurrent callers of a key and gives each its result", async () => {
    const flights = new SingleFlight<{ n: number }>();
    const g = gate<{ n: number }>();
    const waiting = Array.from({ length: 50 }, () => flights.run("GET /a", g.compute));
    expect(g.calls.n).toBe(1);
    expect(flights.size).toBe(1);
    g.open({ n: 7 });
    const results = await Promise.all(waiting);
    expect(new Set(results).size).toBe(1);
    expect(results[0]).toEqual({ n: 7 });
    expect(flights.size).toBe(0);
  });

  it("keeps keys apart and starts a new computation once the last one settled", async () => {
    const flights = new SingleFlight<string>();
    const a = gate<string>();
    const b = gate<string>();
    const first = flights.run("a", a.compute);
    const other = flights.run("b", b.compute);
    expect([a.calls.n, b.calls.n]).toEqual([1, 1]);
    a.open("a1");
    b.open("b1");
    expect([await first, await other]).toEqual(["a1", "b1"]);
    const again = flights.run("a", a.compute);
    expect(a.calls.n).toBe(2);
    a.open("a2");
    expect(await again).toBe("a2");
  });

  it("hands a failure to every waiting caller, then lets the next caller try again", async () => {
    const flights = new SingleFlight<string>();
    const g = gate<string>();
    const waiting = [flights.run("k", g.compute), flights.run("k", g.compute)];
    g.fail(new Error("render failed"));
    for (const w of waiting) await expect(w).rejects.toThrow("render failed");
    expect(flights.size).toBe(0);
    const retry = flights.run("k", g.compute);
    expect(g.calls.n).toBe(2);
    g.open("ok");
    expect(await retry).toBe("ok");
  });

  it("turns a computation that throws before its first await into a rejection", async () => {
    const flights = new SingleFlight<string>();
    await expect(
      flights.run("k", () => {
        throw new Error("synchronous");
      }),
    ).rejects.toThrow("synchronous");
    expect(flights.size).toBe(0);
  });
});
