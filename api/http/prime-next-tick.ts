/**
 * Primes `process.nextTick` before the server loads anything else (imported first by server.ts).
 *
 * Node's HTTP server queues about eight ticks per request, and `nextTick` builds each one as an object literal
 * whose first two keys are symbols. V8 optimizes the function once it is hot, from the type feedback gathered
 * so far. Left to the server's start-up (the database, the test chain, the payment clients and the warehouse all
 * queue ticks of their own), about half of the starts ended with `nextTick` compiled so that three of those
 * property definitions call into the runtime: 7 to 9 µs of main-thread time per request against 0.5 to 0.8, a
 * tenth of a cached answer's whole cost. With `nextTick` made hot on the same plain tick first, it was optimized
 * early, on that feedback alone, and kept the fast form in every start measured (22 of 22, against 15 slow
 * of 30 without). How to re-measure: api/README.md, "Performance: the cached fast path".
 *
 * The primed ticks do nothing but queue the next; they take a few milliseconds, once, at start.
 */

/** How many empty ticks are queued: enough to make V8 optimize `nextTick` before the server's start-up runs. */
export const PRIMING_TICKS = 50_000;

// One tick at a time, each queuing the next: queued all at once, 50 000 ticks outlived a young-generation
// collection, V8 then allocated every later tick object in the old generation, and the server's resident memory
// and time per request grew under load (107 µs per request on /docs.css, against 76 unprimed).
let left = PRIMING_TICKS;
const next = (): void => {
  if (--left > 0) process.nextTick(next);
};
process.nextTick(next);
