import { availableParallelism } from "node:os";
import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    // Vitest's default for a run is one worker fewer than the cores: a single worker on CI's two cores, with the
    // second core mostly idle while a test waits on its database, sockets or child processes. Two at least.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["lib/**/*.test.ts"],
          // A non-UTC zone, so that code assuming UTC fails here.
          env: { TZ: "America/Sao_Paulo", LOG_LEVEL: "silent" },
        },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts"],
          globalSetup: ["tests/integration/global-setup.ts"],
          env: { TZ: "Asia/Kolkata", LOG_LEVEL: "silent", NODE_ENV: "test" },
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // Side effects arrive through the event log's consumers after the commit; on PostgreSQL only once every
          // transaction older than the event has ended, in any database of the server (the other test files' too),
          // so on a busy run they can take seconds. expect.poll waits for them up to this long (its default is 1 s).
          expect: { poll: { timeout: 15_000 } },
        },
      },
      {
        extends: true,
        test: {
          // The production topology (tests/topology): server.ts in child processes on PostgreSQL and Redis, every
          // setting at its default. Not part of `npm test` (it needs both servers and a build): `npm run test:topology`.
          name: "topology",
          include: ["tests/topology/**/*.test.ts"],
          globalSetup: ["tests/topology/global-setup.ts"],
          // One cluster at a time: each file runs two or three full processes on a 2-core machine.
          fileParallelism: false,
          testTimeout: 300_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
