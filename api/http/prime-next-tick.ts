/**
 * Makes `process.nextTick` hot before the server's start-up runs (imported first by server.ts).
 *
 * Node's HTTP server queues about eight ticks per request, and `nextTick` builds each one as an object literal
 * whose first two keys are symbols holding async ids read from a Float64Array. V8 optimizes the function from
 * the feedback gathered until then. Left to the start-up (the database, the test chain, the payment clients and
 * the warehouse all queue ticks of their own), 7 of 24 starts measured ended with code that stores the trigger
 * id as a boxed double and defines the last three properties through the runtime. Every tick of every request
 * then pays for it, in every server of the process: a bare handler served from the same process needed 1.09 to
 * 1.38× the CPU per request of the same handler in a process of its own, against a median 1.03× in the other
 * starts. With `nextTick` hot on plain ticks first, every start measured kept the fast form. During the priming
 * V8 either optimizes `nextTick` itself or first compiles the loop that runs the ticks, with `nextTick` inlined,
 * leaving `nextTick` baseline-compiled; in both cases its feedback is the plain ticks'. How to see the two forms
 * and re-measure: api/README.md, "Performance: the cached fast path".
 *
 * The primed ticks do nothing but queue the next, once, for a few milliseconds at start.
 */

/** How many empty ticks run: enough to take `nextTick` out of the interpreter before the start-up queues ticks. */
export const PRIMING_TICKS = 50_000;

// One tick at a time, each queuing the next. Queued all at once, the ticks outlive a young-generation collection
// and V8 then allocates every later tick object in the old generation, which costs more per request.
let left = PRIMING_TICKS;
const next = (): void => {
  if (--left > 0) process.nextTick(next);
};
process.nextTick(next);
