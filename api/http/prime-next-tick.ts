/**
 * Primes `process.nextTick` before the server loads anything else (imported first by server.ts).
 *
 * Node's HTTP server queues about eight ticks per request, and `nextTick` builds each one as an object literal
 * whose first two keys are symbols. V8 optimizes the function once it is hot, from the type feedback gathered
 * so far. Left to the server's start-up (the database, the test chain, the payment clients and the warehouse all
 * queue ticks of their own), about half of the starts ended with `nextTick` compiled so that three of those
 * property definitions call into the runtime: 7 to 9 µs of main-thread time per request against 0.5 to 0.8, a
 * tenth of a cached answer's whole cost. With `nextTick` made hot on the same plain tick first, it was optimized
 * early, on that feedback alone, and kept the fast form in every start measured (10 of 10, against 5 slow of
 * 12 without). How to re-measure: api/README.md, "The static-first fast path".
 *
 * The primed ticks do nothing and run once the module graph has loaded, in a few milliseconds.
 */

/** How many empty ticks are queued: enough to make V8 optimize `nextTick` before the server's start-up runs. */
export const PRIMING_TICKS = 50_000;

const nothing = (): void => {};
for (let i = 0; i < PRIMING_TICKS; i++) process.nextTick(nothing);
