import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["pipelines/**/*.test.ts", "api/**/*.test.ts", "scripts/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Tests never reach the internet: the one request-time upstream (weather alerts) points at a closed
    // loopback port, so the route answers from its snapshot copy; its own tests start local servers.
    env: { WEATHER_ALERTS_URL: "http://127.0.0.1:9/alerts/active" },
  },
});
