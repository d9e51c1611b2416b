import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["pipelines/**/*.test.ts", "api/**/*.test.ts", "scripts/**/*.test.ts", "clients/*/src/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Test files share each worker's module graph instead of importing the server's (h3, zod, viem, DuckDB,
    // every route) again for each of ~240 files: a full run on 2 cores takes about 6 instead of 9 minutes.
    // Tests therefore leave no module-level state behind (each one closes what it starts).
    isolate: false,
    // Marks every process the run starts and stops (and reports) any left when it ends or is interrupted.
    globalSetup: ["api/testing/global-setup.ts"],
    // Tests never reach the internet: the one request-time upstream (weather alerts) points at a closed
    // loopback port, so the route answers from its snapshot copy; its own tests start local servers.
    // Receipts are signed with a fixed test key, so no test writes a key file into the working tree.
    env: {
      WEATHER_ALERTS_URL: "http://127.0.0.1:9/alerts/active",
      RECEIPT_SIGNING_KEY: "7f3c1d2e4b5a69788796a5b4c3d2e1f00112233445566778899aabbccddeeff0",
    },
  },
});
