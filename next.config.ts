import type { NextConfig } from "next";
import createNextIntlPlugin from "next-intl/plugin";
import { apiRewrites } from "./lib/api/paths";

const withNextIntl = createNextIntlPlugin("./i18n/request.ts");

const nextConfig: NextConfig = {
  poweredByHeader: false,
  // `npm run typecheck` checks the types (tsc on the same tsconfig, tests included) and CI runs it before it
  // builds; the build only compiles, instead of running the same check a second time (about a minute in CI, where
  // the Dockerfile's build runs it a third time).
  typescript: { ignoreBuildErrors: true },
  // Load each page's server code when it is first requested, not all of it at start: about 60 MB less memory for
  // a process that serves few of the pages (docs/performance.md, "Memory").
  experimental: { preloadEntriesOnStart: false },
  // Native or WASM packages that must be loaded by Node, not bundled; date-holidays for its 10 MB of data.
  serverExternalPackages: [
    "@electric-sql/pglite",
    "@node-rs/argon2",
    "pg",
    "ioredis",
    "rate-limiter-flexible",
    "nodemailer",
    "resend",
    "web-push",
    "date-holidays",
  ],
  async headers() {
    // The invitation page carries its token in the URL: no link on it may pass it on, and it is never indexed.
    return [
      {
        source: "/invite/:token",
        headers: [
          { key: "Referrer-Policy", value: "no-referrer" },
          { key: "X-Robots-Tag", value: "noindex, nofollow" },
          { key: "Cache-Control", value: "private, no-store" },
        ],
      },
    ];
  },
  async rewrites() {
    return { beforeFiles: apiRewrites(), afterFiles: [], fallback: [] };
  },
};

export default withNextIntl(nextConfig);
