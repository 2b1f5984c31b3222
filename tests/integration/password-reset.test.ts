import { createHash, randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from "vitest";
import { authResultOutput, emailSentOutput, userOutput } from "../../lib/accounts/schema";
import { advanceClock, resetClock } from "../../lib/clock";
import { expectProblem, expectShape, registerUser, startTestServer, type TestServer } from "./harness";
import { startSmtpSink, type ReceivedMail, type SmtpSink } from "./smtp-sink";

/*
 * Password reset through the SMTP transport against a real SMTP server on loopback (smtp-sink.ts): the link is read
 * from the message as it arrived and followed to the end.
 */

const APP_URL = "https://spolu.example";
const FROM = "Spolu <noreply@spolu.test>";

let server: TestServer;
let sink: SmtpSink;

beforeAll(async () => {
  sink = await startSmtpSink();
  // The per-address limit has its own server below: here every test asks from 127.0.0.1.
  server = await startTestServer({
    EMAIL_TRANSPORT: "smtp",
    SMTP_URL: sink.url,
    EMAIL_FROM: FROM,
    APP_URL,
    PASSWORD_RESET_ADDRESS_PER_HOUR: "10000",
  });
});
afterAll(async () => {
  await server?.close();
  await sink?.close();
});
afterEach(() => resetClock());

const requestReset = (email: string) => server.request("/api/v1/auth/password-reset", { json: { email } });
const confirm = (json: unknown) => server.request("/api/v1/auth/password-reset/confirm", { json });
const login = (email: string, password: string) => server.request("/api/v1/auth/login", { json: { email, password } });

/** The password-reset messages the SMTP server received for `address` (registration sends a verification too). */
const resetMails = (address: string) => sink.to(address).filter((message) => message.text.includes("/reset-password#token="));

/** Waits for the `index`-th password-reset message (from 0) to reach `address`. */
async function mailTo(address: string, index = 0): Promise<ReceivedMail> {
  return vi.waitFor(
    () => {
      const message = resetMails(address)[index];
      if (!message) throw new Error(`no message ${index} to ${address} yet`);
      return message;
    },
    { timeout: 10_000, interval: 50 },
  );
}

/** The reset link of the password-reset message to `address`, read from its text and checked against its HTML. */
async function resetLink(address: string, index = 0): Promise<{ url: URL; token: string; mail: ReceivedMail }> {
  const mail = await mailTo(address, index);
  const match = /https:\/\/spolu\.example\/[a-z]{2}\/reset-password#token=[A-Za-z0-9_-]{43}/.exec(mail.text);
  expect(match, mail.text).not.toBeNull();
  const url = new URL(match![0]);
  expect(mail.html).toContain(`href="${url.href}"`);
  return { url, token: new URLSearchParams(url.hash.slice(1)).get("token")!, mail };
}

async function expectSignedOut(token: string) {
  expectProblem(await server.request("/api/v1/auth/me", { token }), 401, "unauthenticated");
}

describe("POST /auth/password-reset", () => {
  test("answers the same 202 for an unknown address as for an account's; only the account gets an email", async () => {
    const unknown = `nobody-${randomUUID()}@example.com`;
    const person = await registerUser(server);

    const forUnknown = await requestReset(unknown);
    const forKnown = await requestReset(person.email);
    expect(forUnknown.status).toBe(202);
    expect(forKnown.status).toBe(202);
    expect(forUnknown.body).toEqual(forKnown.body);
    expectShape(emailSentOutput, forKnown.body);
    expect(forUnknown.headers.get("content-type")).toBe(forKnown.headers.get("content-type"));

    const { mail } = await resetLink(person.email);
    expect(mail.from).toBe("noreply@spolu.test");
    expect(mail.subject).toBe("Reset your Spolu password");
    expect(mail.text).toContain("within an hour");
    // The unknown address was asked for first and got nothing: there is no account to send to.
    expect(sink.to(unknown)).toEqual([]);
  });

  test("stores only the token's SHA-256, never the token itself", async () => {
    const person = await registerUser(server);
    await requestReset(person.email);
    const { token } = await resetLink(person.email);
    const rows = await server.sql<{ token_hash: string }>(
      "select token_hash from account_tokens where user_id = $1 and purpose = 'password_reset'",
      [person.user.id],
    );
    expect(rows).toEqual([{ token_hash: createHash("sha256").update(token).digest("hex") }]);
    const all = JSON.stringify(await server.sql("select * from account_tokens where user_id = $1", [person.user.id]));
    expect(all).not.toContain(token);
  });

  test("400 naming the field for something that is not an email address", async () => {
    const problem = expectProblem(await requestReset("not an address"), 400, "validation_failed");
    expect(problem.errors).toEqual([expect.objectContaining({ in: "body", pointer: "/email" })]);
  });

  test("429 with Retry-After after 3 requests an hour for one address, whether or not an account uses it", async () => {
    const person = await registerUser(server);
    const unknown = `nobody-${randomUUID()}@example.com`;
    for (const email of [person.email, unknown]) {
      for (let i = 0; i < 3; i++) expect((await requestReset(email)).status).toBe(202);
      const refused = await requestReset(email.toUpperCase());
      expectProblem(refused, 429, "rate_limited");
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(3000);
    }
    // Three emails went out, not four.
    await mailTo(person.email, 2);
    expect(resetMails(person.email)).toHaveLength(3);
  });
});

describe("POST /auth/password-reset/confirm", () => {
  test("the emailed link, followed to the end: new password set, every old session ended, signed in", async () => {
    const person = await registerUser(server);
    const otherDevice = await login(person.email, person.password);
    expect(otherDevice.status).toBe(200);

    expect((await requestReset(person.email)).status).toBe(202);
    const { url, token } = await resetLink(person.email);
    expect(url.pathname).toBe("/en/reset-password");

    const newPassword = `new-${randomUUID()}`;
    const response = await confirm({ token, password: newPassword });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const result = expectShape(authResultOutput, response.body);
    // Signed in the way POST /auth/login signs in: the token, and the session cookie carrying it.
    const cookie = response.headers.getSetCookie().find((header) => header.startsWith("spolu_session="));
    expect(cookie).toContain(`spolu_session=${result.token}`);
    expect(cookie).toMatch(/HttpOnly/i);
    const me = expectShape(userOutput, (await server.request("/api/v1/auth/me", { token: result.token })).body);
    // Following the link proved the address.
    expect(me).toMatchObject({ id: person.user.id, emailVerified: true });

    // Both earlier sessions ended; the session list shows only the new one.
    await expectSignedOut(person.token);
    await expectSignedOut(otherDevice.body.token);
    const sessions = await server.request("/api/v1/auth/sessions", { token: result.token });
    expect(sessions.body.items).toEqual([expect.objectContaining({ current: true, method: "password-reset" })]);

    expectProblem(await login(person.email, person.password), 401, "unauthenticated");
    expect((await login(person.email, newPassword)).status).toBe(200);
  });

  test("the link works once; a second link sent meanwhile stops working too", async () => {
    const person = await registerUser(server);
    await requestReset(person.email);
    const first = await resetLink(person.email, 0);
    await requestReset(person.email);
    const second = await resetLink(person.email, 1);
    expect(second.token).not.toBe(first.token);

    expect((await confirm({ token: first.token, password: `new-${randomUUID()}` })).status).toBe(200);
    for (const token of [first.token, second.token]) {
      const problem = expectProblem(await confirm({ token, password: `again-${randomUUID()}` }), 400, "validation_failed");
      expect(problem.errors).toEqual([expect.objectContaining({ in: "body", pointer: "/token" })]);
    }
  });

  test("an hour later the link has expired, and the password stays as it was", async () => {
    const person = await registerUser(server);
    await requestReset(person.email);
    const { token } = await resetLink(person.email);
    advanceClock(60 * 60_000 + 1_000);
    const problem = expectProblem(await confirm({ token, password: `new-${randomUUID()}` }), 400, "validation_failed");
    expect(problem.errors).toEqual([expect.objectContaining({ pointer: "/token", detail: expect.stringMatching(/expired/) })]);
    resetClock();
    expect((await login(person.email, person.password)).status).toBe(200);
  });

  test("a weak password is a 400 naming `password`, and the link still works for a good one", async () => {
    const person = await registerUser(server);
    await requestReset(person.email);
    const { token } = await resetLink(person.email);
    for (const password of ["short", "password123"]) {
      const problem = expectProblem(await confirm({ token, password }), 400, "validation_failed");
      expect(problem.errors).toEqual([expect.objectContaining({ in: "body", pointer: "/password" })]);
    }
    expect((await confirm({ token, password: `good-${randomUUID()}` })).status).toBe(200);
  });

  test("400 naming `token` for a malformed token and for one never sent", async () => {
    const malformed = expectProblem(await confirm({ token: "abc", password: `pw-${randomUUID()}` }), 400, "validation_failed");
    expect(malformed.errors).toEqual([expect.objectContaining({ pointer: "/token" })]);
    const unknown = expectProblem(
      await confirm({ token: "A".repeat(43), password: `pw-${randomUUID()}` }),
      400,
      "validation_failed",
    );
    expect(unknown.errors).toEqual([expect.objectContaining({ pointer: "/token" })]);
  });

  test("a link sent before the account's address changed does not work", async () => {
    const person = await registerUser(server);
    await requestReset(person.email);
    const { token } = await resetLink(person.email);
    const moved = await server.request("/api/v1/auth/profile", {
      method: "PATCH",
      token: person.token,
      json: { email: `moved-${randomUUID()}@example.com`, currentPassword: person.password },
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expectProblem(await confirm({ token, password: `new-${randomUUID()}` }), 400, "validation_failed");
  });

  test("a Hebrew speaker's email is in Hebrew, right to left, with the link to the Hebrew page", async () => {
    const person = await registerUser(server, { locale: "he" });
    await requestReset(person.email);
    const { url, mail } = await resetLink(person.email);
    expect(url.pathname).toBe("/he/reset-password");
    expect(mail.subject).toBe("איפוס הסיסמה ל־Spolu");
    expect(mail.html).toContain('dir="rtl"');
  });
});

test("GET /openapi.json – documents both operations with descriptions and examples", async () => {
  const { paths } = (await server.request("/api/v1/openapi.json")).body;
  const request = paths["/api/v1/auth/password-reset"].post;
  expect(request.description).toMatch(/same 202/);
  expect(request.responses["202"]).toBeDefined();
  expect(request.responses["429"]).toBeDefined();
  expect(request.requestBody.content["application/json"].example).toEqual({ email: "jana@example.com" });
  const confirmation = paths["/api/v1/auth/password-reset/confirm"].post;
  expect(confirmation.description).toMatch(/every session/i);
  expect(confirmation.requestBody.content["application/json"].example).toMatchObject({ password: expect.any(String) });
});

describe("the per-address limit", () => {
  let limited: TestServer;
  beforeAll(async () => {
    await server.close();
    limited = await startTestServer({
      EMAIL_TRANSPORT: "smtp",
      SMTP_URL: sink.url,
      APP_URL,
      PASSWORD_RESET_ADDRESS_PER_HOUR: "2",
    });
  });
  afterAll(async () => {
    await limited?.close();
    server = undefined as never;
  });

  test("POST /auth/password-reset – 429 after PASSWORD_RESET_ADDRESS_PER_HOUR requests from one client, whatever the addresses", async () => {
    const ask = () => limited.request("/api/v1/auth/password-reset", { json: { email: `someone-${randomUUID()}@example.com` } });
    expect((await ask()).status).toBe(202);
    expect((await ask()).status).toBe(202);
    expectProblem(await ask(), 429, "rate_limited");
  });
});
