import { mkdirSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { defineConfig, devices } from "@playwright/test";

/**
 * End-to-end tests in Debian's Chromium against `server.ts` (pages, API fast path and socket, as in
 * production). Build first: `npm run test:e2e` runs `next build`, then this.
 */
/** E2E_PORT moves both servers (this one and the next one up), so that two checkouts can run their tests at once. */
const PORT = Number(process.env.E2E_PORT ?? 3100);
const BASE_URL = `http://127.0.0.1:${PORT}`;
/** `next start` alone (no server.ts): the API must answer through Next's catch-all route handler too. */
export const NEXT_ALONE_PORT = PORT + 1;
/** The mail server Spolu sends to in these runs (e2e/mail-sink.ts): two ports above the server's. */
const SMTP_PORT = PORT + 2;
/** The stand-in for GitHub that Spolu signs in and links accounts with in these runs (e2e/github-stub-server.ts). */
export const GITHUB_PORT = PORT + 3;
const GITHUB_URL = `http://127.0.0.1:${GITHUB_PORT}`;
const GITHUB_CLIENT = { id: "spolu-e2e", secret: "spolu-e2e-github-secret" };
/** The account the admin tests register: an admin through ADMIN_EMAILS. */
export const ADMIN_EMAIL = "admin-e2e@example.com";
const DATA_PREFIX = "spolu-e2e-";

/** A fresh database directory per run, created once by the runner and inherited by its workers. */
function e2eDataDir(kind: "server" | "next-alone" | "mail"): string {
  const variable = `SPOLU_E2E_DATA_DIR_${kind.toUpperCase().replace("-", "_")}`;
  const existing = process.env[variable];
  if (existing) return existing;
  // Runs are not cleaned up after (the server still holds the directory then): drop ones older than a day.
  const dayAgo = Date.now() - 24 * 3600 * 1000;
  for (const name of readdirSync(tmpdir())) {
    const dir = path.join(tmpdir(), name);
    if (name.startsWith(DATA_PREFIX) && statSync(dir).mtimeMs < dayAgo) rmSync(dir, { recursive: true, force: true });
  }
  const dir = path.join(tmpdir(), `${DATA_PREFIX}${kind}-${Date.now()}-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  process.env[variable] = dir;
  return dir;
}

export default defineConfig({
  testDir: "e2e",
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  retries: process.env.CI ? 1 : 0,
  // Two at once in CI: Playwright's default is half the cores (one on CI's two), and a single worker leaves the
  // machine idle while a test waits on the server, the socket or an e-mail. Each test registers its own users.
  workers: process.env.CI ? 2 : undefined,
  reporter: process.env.CI ? [["list"]] : [["list"], ["html", { open: "never" }]],
  // Two workers share two cores with the server and Chromium: a test that takes 15 s alone can take twice that.
  timeout: 45_000,
  expect: { timeout: 10_000 },
  use: {
    baseURL: BASE_URL,
    locale: "en-US",
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
  },
  projects: [
    {
      name: "chromium",
      use: {
        ...devices["Desktop Chrome"],
        launchOptions: {
          executablePath: "/usr/bin/chromium",
          args: [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
          ],
        },
      },
    },
  ],
  webServer: [
    {
      // The mail server: every email Spolu sends lands in E2E_MAIL_DIR, where specs read it (e2e/mailbox.ts).
      command: "node --import tsx e2e/mail-sink.ts",
      port: SMTP_PORT,
      reuseExistingServer: false,
      timeout: 60_000,
      gracefulShutdown: { signal: "SIGTERM", timeout: 5_000 },
      stdout: "ignore",
      stderr: "pipe",
      env: { E2E_SMTP_PORT: String(SMTP_PORT), E2E_MAIL_DIR: e2eDataDir("mail") },
    },
    {
      // GitHub: the linked-accounts spec links and unlinks a GitHub account, and signs in with one.
      command: "node --import tsx e2e/github-stub-server.ts",
      port: GITHUB_PORT,
      reuseExistingServer: false,
      timeout: 60_000,
      gracefulShutdown: { signal: "SIGTERM", timeout: 5_000 },
      stdout: "ignore",
      stderr: "pipe",
      env: {
        E2E_GITHUB_PORT: String(GITHUB_PORT),
        E2E_GITHUB_CLIENT_ID: GITHUB_CLIENT.id,
        E2E_GITHUB_CLIENT_SECRET: GITHUB_CLIENT.secret,
        E2E_APP_URL: BASE_URL,
      },
    },
    {
      command: "node --import tsx server.ts",
      url: `${BASE_URL}/healthz`,
      reuseExistingServer: false,
      timeout: 120_000,
      gracefulShutdown: { signal: "SIGTERM", timeout: 10_000 },
      stdout: "ignore",
      stderr: "pipe",
      env: {
        PORT: String(PORT),
        HOST: "127.0.0.1",
        DATA_DIR: e2eDataDir("server"),
        NODE_ENV: "production",
        APP_URL: BASE_URL,
        LOG_LEVEL: "warn",
        // Every test registers its own user from 127.0.0.1.
        AUTH_RATE_LIMIT_POINTS: "1000",
        // The admin dashboard's tests register this address.
        ADMIN_EMAILS: ADMIN_EMAIL,
        // Emails go over SMTP to the mail server above (the password-reset spec follows the link in one).
        EMAIL_TRANSPORT: "smtp",
        SMTP_URL: `smtp://127.0.0.1:${SMTP_PORT}`,
        PASSWORD_RESET_ADDRESS_PER_HOUR: "1000",
        // GitHub is the stand-in above (a loopback provider may speak plain http).
        GITHUB_CLIENT_ID: GITHUB_CLIENT.id,
        GITHUB_CLIENT_SECRET: GITHUB_CLIENT.secret,
        GITHUB_BASE_URL: GITHUB_URL,
        GITHUB_API_URL: `${GITHUB_URL}/api/v3`,
        // The connections spec runs a local Odoo on 127.0.0.1.
        CONNECTOR_ALLOW_PRIVATE_NETWORK: "true",
        // Chromium refuses an IP address as a passkey's relying party: the passkey tests open the site as localhost.
        WEBAUTHN_RP_ID: "localhost",
        WEBAUTHN_ORIGINS: `http://localhost:${PORT}`,
      },
    },
    {
      command: `node node_modules/next/dist/bin/next start -p ${NEXT_ALONE_PORT} -H 127.0.0.1`,
      // Ready, not only alive: Next alone opens (and on a new data directory, creates) the database on first use.
      url: `http://127.0.0.1:${NEXT_ALONE_PORT}/readyz`,
      reuseExistingServer: false,
      timeout: 120_000,
      stdout: "ignore",
      stderr: "pipe",
      env: { DATA_DIR: e2eDataDir("next-alone"), NODE_ENV: "production", LOG_LEVEL: "warn" },
    },
  ],
});
