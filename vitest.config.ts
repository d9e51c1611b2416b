import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["pipelines/**/*.test.ts", "api/**/*.test.ts", "scripts/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
  },
});
