import { randomUUID } from "node:crypto";
import { io } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { adminUserListOutput, adminUserOutput } from "../../lib/admin/schema";
import { advanceClock, resetClock } from "../../lib/clock";
import { startGithubStub, type GithubStub, type GithubUser } from "./github-stub";
import {
  ADMIN_EMAIL,
  createTask,
  expectProblem,
  expectShape,
  registerUser,
  startTestServer,
  type TestServer,
  CookieJar,
} from "./harness";
import { SoftAuthenticator } from "./soft-authenticator";

const RP_ID = "spolu.test";
const ORIGIN = "https://spolu.test";
/** A second administrator, to show that administrators cannot be disabled. */
const OTHER_ADMIN_EMAIL = "second-admin@spolu.test";
const GITHUB = { clientId: "spolu-github", clientSecret: `github-secret-${randomUUID()}` };

let server: TestServer;
let github: GithubStub;
let admin: Awaited<ReturnType<typeof registerUser>>;

beforeAll(async () => {
  github = await startGithubStub();
  server = await startTestServer({
    ADMIN_EMAILS: `${ADMIN_EMAIL},${OTHER_ADMIN_EMAIL}`,
    WEBAUTHN_RP_ID: RP_ID,
    WEBAUTHN_ORIGINS: ORIGIN,
    GITHUB_CLIENT_ID: GITHUB.clientId,
    GITHUB_CLIENT_SECRET: GITHUB.clientSecret,
    GITHUB_BASE_URL: github.url,
    GITHUB_API_URL: github.apiUrl,
  });
  github.addClient({ ...GITHUB, redirectUri: `${server.url}/auth/github/callback` });
  admin = await registerUser(server, { email: ADMIN_EMAIL, name: "Ada Admin" });
});
afterAll(async () => {
  resetClock();
  await server?.close();
  await github?.close();
});

const listUsers = (query = "", token = admin.token) => server.request(`/api/v1/admin/users${query}`, { token });
const disable = (id: string, token = admin.token) =>
  server.request(`/api/v1/admin/users/${id}/disable`, { method: "POST", token });
const enable = (id: string, token = admin.token) => server.request(`/api/v1/admin/users/${id}/enable`, { method: "POST", token });
const me = (token: string) => server.request("/auth/me", { token });
const login = (email: string, password: string) => server.request("/auth/login", { json: { email, password } });

describe("admin routes for someone who is not an administrator", () => {
  test("GET /admin/users, POST /admin/users/{id}/disable and /enable – 403 for a signed-in user, 401 without a session", async () => {
    const user = await registerUser(server);
    const victim = await registerUser(server);
    expectProblem(await listUsers("", user.token), 403, "forbidden");
    expectProblem(await disable(victim.user.id, user.token), 403, "forbidden");
    expectProblem(await enable(victim.user.id, user.token), 403, "forbidden");
    expectProblem(await server.request("/api/v1/admin/users"), 401, "unauthenticated");
    expect((await me(victim.token)).status).toBe(200);
  });
});

describe("GET /admin/users", () => {
  test("newest first, with task counts, the admin flag and the disabled state; paged with a total", async () => {
    const marker = randomUUID().slice(0, 8);
    const first = await registerUser(server, { name: `Paging ${marker} one`, locale: "cs" });
    const second = await registerUser(server, { name: `Paging ${marker} two` });
    const third = await registerUser(server, { name: `Paging ${marker} three` });
    await createTask(server, second.token);
    await createTask(server, second.token, { title: "Another" });

    const page1 = expectShape(adminUserListOutput, (await listUsers(`?q=${marker}&pageSize=2`)).body);
    expect(page1).toMatchObject({ total: 3, page: 1, pageSize: 2 });
    expect(page1.items.map((user) => user.id)).toEqual([third.user.id, second.user.id]);
    expect(page1.items[1]).toMatchObject({ email: second.email, taskCount: 2, isAdmin: false, disabledAt: null });
    expect(page1.items[1]!.lastSeenAt).not.toBeNull();

    const page2 = expectShape(adminUserListOutput, (await listUsers(`?q=${marker}&pageSize=2&page=2`)).body);
    expect(page2.items.map((user) => user.id)).toEqual([first.user.id]);
    expect(page2.items[0]).toMatchObject({ name: `Paging ${marker} one`, locale: "cs", taskCount: 0 });
    const beyond = expectShape(adminUserListOutput, (await listUsers(`?q=${marker}&pageSize=2&page=3`)).body);
    expect(beyond).toMatchObject({ items: [], total: 3 });

    const everyone = expectShape(adminUserListOutput, (await listUsers("?pageSize=100")).body);
    expect(everyone.total).toBeGreaterThanOrEqual(4);
    expect(everyone.items.find((user) => user.id === admin.user.id)).toMatchObject({ isAdmin: true, name: "Ada Admin" });
  });

  test("searches names and emails in any case; % and _ match only themselves", async () => {
    const marker = randomUUID().slice(0, 8);
    const byName = await registerUser(server, { name: `Zdeňka ${marker}` });
    const byEmail = await registerUser(server, { email: `mail-${marker}@example.com` });
    await registerUser(server, { name: `Other_person ${marker.slice(0, 4)}` });
    await registerUser(server, { name: `Nor4pe ${marker.slice(0, 4)}` });

    const name = expectShape(
      adminUserListOutput,
      (await listUsers(`?q=${encodeURIComponent(`ZDEŇKA ${marker.toUpperCase()}`)}`)).body,
    );
    expect(name.items.map((user) => user.id)).toEqual([byName.user.id]);
    const email = expectShape(adminUserListOutput, (await listUsers(`?q=MAIL-${marker.toUpperCase()}@`)).body);
    expect(email.items.map((user) => user.id)).toEqual([byEmail.user.id]);
    expect((await listUsers(`?q=${encodeURIComponent("%")}`)).body.total).toBe(0);
    const underscore = expectShape(adminUserListOutput, (await listUsers(`?q=${encodeURIComponent("r_p")}`)).body);
    expect(underscore.items.map((user) => user.name)).toEqual([`Other_person ${marker.slice(0, 4)}`]);
  });

  test("a bad page size or page names the query field", async () => {
    const big = expectProblem(await listUsers("?pageSize=1000"), 400, "validation_failed");
    expect(big.errors?.[0]).toMatchObject({ in: "query", pointer: "/pageSize" });
    const zero = expectProblem(await listUsers("?page=0"), 400, "validation_failed");
    expect(zero.errors?.[0]).toMatchObject({ in: "query", pointer: "/page" });
  });

  test("lastSeenAt follows the sessions' use, to within five minutes", async () => {
    const user = await registerUser(server);
    const seenAt = async () => (await listUsers(`?q=${user.email}`)).body.items[0].lastSeenAt as string | null;
    // Registering is no use of a session yet.
    expect(await seenAt()).toBeNull();
    expect((await me(user.token)).status).toBe(200);
    const first = await seenAt();
    expect(first).not.toBeNull();
    try {
      // Within five minutes nothing is written; after them the next read of the session user (it is cached for a
      // minute: a profile change forgets it at once) brings it up to date.
      advanceClock(4 * 60_000);
      expect(
        (await server.request("/auth/profile", { method: "PATCH", token: user.token, json: { name: "Seen again" } })).status,
      ).toBe(200);
      expect((await me(user.token)).status).toBe(200);
      expect(await seenAt()).toBe(first);
      advanceClock(2 * 60_000);
      expect(
        (await server.request("/auth/profile", { method: "PATCH", token: user.token, json: { name: "Seen later" } })).status,
      ).toBe(200);
      expect((await me(user.token)).status).toBe(200);
      expect(Date.parse((await seenAt())!) - Date.parse(first!)).toBeGreaterThanOrEqual(6 * 60_000);
    } finally {
      resetClock();
    }
  });
});

/** Opens a socket for the token; `closed` tells why it was closed, once it is. */
async function openSocket(token: string): Promise<{ closed: Promise<string> }> {
  const socket = io(server.url, { path: "/ws", transports: ["websocket"], auth: { token }, reconnection: false });
  await new Promise<void>((resolve, reject) => {
    socket.on("connect", () => resolve());
    socket.on("connect_error", reject);
  });
  return { closed: new Promise<string>((resolve) => socket.on("disconnect", resolve)) };
}

describe("POST /admin/users/{id}/disable and /enable", () => {
  test("disabling ends the sessions at once (token 401, socket closed) and refuses the password; enabling lets it sign in again", async () => {
    const user = await registerUser(server);
    const task = await createTask(server, user.token, { title: "Kept while disabled" });
    const { closed } = await openSocket(user.token);

    const disabled = expectShape(adminUserOutput, (await disable(user.user.id)).body);
    expect(disabled).toMatchObject({ id: user.user.id, email: user.email, taskCount: 1 });
    expect(Date.parse(disabled.disabledAt!)).toBeLessThanOrEqual(Date.now());
    expect(await closed).toBe("io server disconnect");
    expectProblem(await me(user.token), 401, "unauthenticated");
    expectProblem(await server.request(`/tasks/${task.id}`, { token: user.token }), 401, "unauthenticated");

    // The right password is refused with a clear problem; a wrong one says no more than for anyone.
    const refused = expectProblem(await login(user.email, user.password), 403, "account_disabled");
    expect(refused.detail).toMatch(/disabled by an administrator/);
    expectProblem(await login(user.email, "not the password"), 401, "unauthenticated");

    // Disabling again changes nothing.
    const again = expectShape(adminUserOutput, (await disable(user.user.id)).body);
    expect(again.disabledAt).toBe(disabled.disabledAt);

    const enabled = expectShape(adminUserOutput, (await enable(user.user.id)).body);
    expect(enabled).toMatchObject({ id: user.user.id, disabledAt: null });
    // The old session stays ended; signing in works again and the data is all there.
    expectProblem(await me(user.token), 401, "unauthenticated");
    const signedIn = await login(user.email, user.password);
    expect(signedIn.status).toBe(200);
    const read = await server.request(`/tasks/${task.id}`, { token: signedIn.body.token });
    expect(read.body).toMatchObject({ title: "Kept while disabled" });
    expect(expectShape(adminUserOutput, (await enable(user.user.id)).body).disabledAt).toBeNull();
  });

  test("a disabled account cannot sign in with a passkey", async () => {
    const user = await registerUser(server);
    const authenticator = new SoftAuthenticator();
    const options = await server.request("/api/v1/webauthn/register/options", { token: user.token, json: {} });
    const registered = await server.request("/api/v1/webauthn/register/verify", {
      token: user.token,
      json: { response: authenticator.register(options.body, { origin: ORIGIN }) },
    });
    expect(registered.status, JSON.stringify(registered.body)).toBe(201);
    expect((await disable(user.user.id)).status).toBe(200);

    const signIn = async () => {
      const authOptions = await server.request("/api/v1/webauthn/auth/options", { json: { email: user.email } });
      const assertion = authenticator.authenticate(authOptions.body, { origin: ORIGIN });
      return server.request("/webauthn/auth/verify", { json: { email: user.email, response: assertion } });
    };
    const refused = await signIn();
    expectProblem(refused, 403, "account_disabled");
    expect(refused.headers.get("set-cookie")).toBeNull();
    expect((await enable(user.user.id)).status).toBe(200);
    expect((await signIn()).status).toBe(200);
  });

  test("a disabled account cannot sign in with an external account (GitHub)", async () => {
    const email = `octo-${randomUUID()}@github.test`;
    const githubUser: GithubUser = {
      id: Math.floor(Math.random() * 1e9),
      login: "octo",
      name: "Octo Cat",
      emails: [{ email, primary: true, verified: true }],
    };
    /** Start → GitHub (authorizes at once) → the callback, as an API client. */
    const signIn = async () => {
      github.signInAs(githubUser);
      const browser = new CookieJar(server.url);
      let location = new URL(`${server.url}/auth/github?mode=json`);
      for (let hop = 0; hop < 5; hop++) {
        const response = await browser.fetch(location);
        if (response.status !== 302) {
          return { status: response.status, body: await response.json() };
        }
        location = new URL(response.headers.get("location")!, location);
      }
      throw new Error("too many redirects");
    };
    const first = await signIn();
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect((await disable(first.body.user.id)).status).toBe(200);
    const refused = await signIn();
    expect(refused).toMatchObject({ status: 403, body: { code: "account_disabled" } });
    // A browser is sent back to the sign-in page, which says why.
    github.signInAs(githubUser);
    const browser = new CookieJar(server.url);
    let location = new URL(`${server.url}/auth/github`);
    while (!location.searchParams.has("oauthError")) {
      const response = await browser.fetch(location, { headers: { Accept: "text/html" } });
      expect(response.status).toBe(302);
      location = new URL(response.headers.get("location")!, location);
    }
    expect(`${location.pathname}${location.search}`).toMatch(/^\/[a-z]{2}\/sign-in\?oauthError=disabled$/);
    expect((await enable(first.body.user.id)).status).toBe(200);
    expect((await signIn()).status).toBe(200);
  });

  test("you cannot disable yourself nor another administrator: 409, nothing changes", async () => {
    const self = expectProblem(await disable(admin.user.id), 409, "conflict");
    expect(self.detail).toBe("You cannot disable your own account");
    expect((await me(admin.token)).status).toBe(200);

    const other = await registerUser(server, { email: OTHER_ADMIN_EMAIL });
    const refused = expectProblem(await disable(other.user.id), 409, "conflict");
    expect(refused.detail).toMatch(/administrator/);
    expect((await me(other.token)).status).toBe(200);
  });

  test("an unknown user is a 404; a malformed id names the path parameter", async () => {
    expectProblem(await disable(randomUUID()), 404, "not_found");
    expectProblem(await enable(randomUUID()), 404, "not_found");
    const malformed = expectProblem(await disable("not-a-uuid"), 400, "validation_failed");
    expect(malformed.errors?.[0]).toMatchObject({ in: "path", pointer: "/id" });
  });
});
