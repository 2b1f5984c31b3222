import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from "vitest";
import { emailSentOutput, emailVerifiedOutput, userOutput } from "../../lib/accounts/schema";
import { advanceClock, resetClock } from "../../lib/clock";
import { expectProblem, expectShape, registerUser, startTestServer, type TestServer } from "./harness";
import { startSmtpSink, type SmtpSink } from "./smtp-sink";

/*
 * Email verification through the SMTP transport against a real SMTP server on loopback: the link is read from the
 * message as it arrived.
 */

const APP_URL = "https://spolu.example";

let server: TestServer;
let sink: SmtpSink;

beforeAll(async () => {
  sink = await startSmtpSink();
  server = await startTestServer({ EMAIL_TRANSPORT: "smtp", SMTP_URL: sink.url, APP_URL });
});
afterAll(async () => {
  await server?.close();
  await sink?.close();
});
afterEach(() => resetClock());

const verify = (token: string) => server.request("/api/v1/auth/verify-email", { json: { token } });
const resend = (token?: string) => server.request("/api/v1/auth/verify-email/resend", { method: "POST", token });

async function me(token: string) {
  const response = await server.request("/api/v1/auth/me", { token });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return expectShape(userOutput, response.body);
}

/** The token of the `index`-th verification message (from 0) to `address`, waiting for it to arrive. */
async function verificationToken(address: string, index = 0): Promise<string> {
  const mail = await vi.waitFor(
    () => {
      const found = sink.to(address).filter((message) => message.text.includes("/verify-email#token="))[index];
      if (!found) throw new Error(`no verification message ${index} to ${address} yet`);
      return found;
    },
    { timeout: 10_000, interval: 50 },
  );
  const match = /https:\/\/spolu\.example\/[a-z]{2}\/verify-email#token=([A-Za-z0-9_-]{43})/.exec(mail.text);
  expect(match, mail.text).not.toBeNull();
  expect(mail.html).toContain(`href="${match![0]}"`);
  return match![1]!;
}

describe("POST /auth/verify-email", () => {
  test("registration sends a link; until it is followed the account works and says it is unverified", async () => {
    const person = await registerUser(server);
    expect(person.user).toMatchObject({ emailVerified: false, emailVerifiedAt: null });
    const token = await verificationToken(person.email);
    const mail = sink.to(person.email)[0]!;
    expect(mail.subject).toBe("Confirm your email address for Spolu");

    // Unverified, the account works normally.
    expect((await server.request("/api/v1/tasks", { token: person.token, json: { title: "Still allowed" } })).status).toBe(201);

    // Followed without being signed in (another device, say).
    const response = await verify(token);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(expectShape(emailVerifiedOutput, response.body)).toMatchObject({ email: person.email, emailVerified: true });
    expect(await me(person.token)).toMatchObject({ emailVerified: true, emailVerifiedAt: response.body.emailVerifiedAt });
  });

  test("the link works once", async () => {
    const person = await registerUser(server);
    const token = await verificationToken(person.email);
    expect((await verify(token)).status).toBe(200);
    const problem = expectProblem(await verify(token), 400, "validation_failed");
    expect(problem.errors).toEqual([expect.objectContaining({ in: "body", pointer: "/token" })]);
  });

  test("after 48 hours the link has expired and the address stays unverified", async () => {
    const person = await registerUser(server);
    const token = await verificationToken(person.email);
    advanceClock(48 * 3600_000 + 1_000);
    const problem = expectProblem(await verify(token), 400, "validation_failed");
    expect(problem.errors).toEqual([expect.objectContaining({ pointer: "/token", detail: expect.stringMatching(/expired/) })]);
    resetClock();
    expect(await me(person.token)).toMatchObject({ emailVerified: false });
  });

  test("400 naming `token` for a malformed token", async () => {
    const problem = expectProblem(await verify("not-a-token"), 400, "validation_failed");
    expect(problem.errors).toEqual([expect.objectContaining({ pointer: "/token" })]);
  });

  test("a new address is unverified again: the link goes to it, and the old address's link no longer counts", async () => {
    const person = await registerUser(server);
    const oldToken = await verificationToken(person.email);
    const newEmail = `moved-${randomUUID()}@example.com`;
    const moved = await server.request("/api/v1/auth/profile", {
      method: "PATCH",
      token: person.token,
      json: { email: newEmail, currentPassword: person.password },
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body).toMatchObject({ email: newEmail, emailVerified: false });

    expectProblem(await verify(oldToken), 400, "validation_failed");
    expect((await verify(await verificationToken(newEmail))).status).toBe(200);
    expect(await me(person.token)).toMatchObject({ email: newEmail, emailVerified: true });
  });
});

describe("POST /auth/verify-email/resend", () => {
  test("sends a new link that works; 409 once the address is verified", async () => {
    const person = await registerUser(server);
    await verificationToken(person.email, 0);
    const response = await resend(person.token);
    expect(response.status, JSON.stringify(response.body)).toBe(202);
    expectShape(emailSentOutput, response.body);
    const second = await verificationToken(person.email, 1);
    expect((await verify(second)).status).toBe(200);
    expectProblem(await resend(person.token), 409, "conflict");
  });

  test("401 when not signed in", async () => {
    expectProblem(await resend(), 401, "unauthenticated");
  });

  test("429 after 3 in an hour", async () => {
    const person = await registerUser(server);
    for (let i = 0; i < 3; i++) expect((await resend(person.token)).status).toBe(202);
    const refused = expectProblem(await resend(person.token), 429, "rate_limited");
    expect(refused.detail).toMatch(/try again/);
  });
});
