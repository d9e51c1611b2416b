// Preload for api/e2e/unexpected-error.test.ts: SIGUSR2 makes the server fail as a bug in its code would, with an
// exception nothing catches (AGENTFEED_TEST_CRASH=throw) or a rejected promise nothing handles (=reject); with
// =after-sigterm, SIGTERM is followed by an exception once the server's own handler has begun its stop.
if (process.env.AGENTFEED_TEST_CRASH === "after-sigterm") {
  process.on("SIGTERM", () => {
    setImmediate(() => {
      throw new Error("a client failed while the server stops (test)");
    });
  });
}
process.on("SIGUSR2", () => {
  const error = new Error(`crash requested by the test (SIGUSR2, ${process.env.AGENTFEED_TEST_CRASH})`);
  if (process.env.AGENTFEED_TEST_CRASH === "reject") void Promise.reject(error);
  else throw error;
});
