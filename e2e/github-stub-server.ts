/**
 * GitHub for the end-to-end runs (started by playwright.config.ts beside Spolu, which has it as its GitHub
 * provider): the integration tests' stand-in for GitHub's OAuth web flow and API (tests/integration/github-stub.ts)
 * on E2E_GITHUB_PORT, with Spolu's client registered. A spec chooses who "clicks Authorize" next with
 * `POST /_stub/sign-in-as` (e2e/pages/github.ts).
 */
import { startGithubStub } from "../tests/integration/github-stub";

const stub = await startGithubStub({ port: Number(process.env.E2E_GITHUB_PORT) });
stub.addClient({
  clientId: process.env.E2E_GITHUB_CLIENT_ID!,
  clientSecret: process.env.E2E_GITHUB_CLIENT_SECRET!,
  redirectUri: `${process.env.E2E_APP_URL!}/auth/github/callback`,
});
process.on("SIGTERM", () => void stub.close().then(() => process.exit(0)));
