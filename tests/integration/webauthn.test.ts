import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { authResultOutput, userOutput } from "../../lib/accounts/schema";
import { advanceClock, resetClock } from "../../lib/clock";
import { authOptionsOutput, deviceListOutput, deviceOutput, registrationOptionsOutput } from "../../lib/webauthn/schema";
import { expectProblem, expectShape, registerUser, startTestServer, type ApiResponse, type TestServer } from "./harness";
import { SoftAuthenticator, ZERO_AAGUID, type CeremonyOptions, type SoftAuthenticatorOptions } from "./soft-authenticator";

const RP_ID = "spolu.test";
const ORIGIN = "https://spolu.test";
const WINDOWS_HELLO = "08987058-cadc-4b81-b6e1-30de50dcbe96";
const UNKNOWN_AAGUID = "12345678-9abc-4def-8123-456789abcdef";
const IPHONE_UA =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.5 Mobile/15E148 Safari/604.1";
const MINUTE_MS = 60 * 1000;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({
    WEBAUTHN_RP_ID: RP_ID,
    WEBAUTHN_RP_NAME: "Spolu Test",
    WEBAUTHN_ORIGINS: `${ORIGIN}, https://m.spolu.test`,
  });
});
afterAll(() => server.close());
afterEach(() => resetClock());

type User = Awaited<ReturnType<typeof registerUser>>;

async function registrationOptions(user: User) {
  const response = await server.request("/api/v1/webauthn/register/options", { token: user.token, json: {} });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return expectShape(registrationOptionsOutput, response.body);
}

/** Registration as the pages do it: options, the authenticator's answer, verify. Answers the verify response. */
async function tryRegister(
  user: User,
  authenticator: SoftAuthenticator,
  extra: { name?: string; headers?: Record<string, string>; ceremony?: Partial<CeremonyOptions> } = {},
) {
  const options = await registrationOptions(user);
  const response = authenticator.register(options, { origin: ORIGIN, ...extra.ceremony });
  return server.request("/api/v1/webauthn/register/verify", {
    token: user.token,
    headers: extra.headers,
    json: { response, ...(extra.name !== undefined && { name: extra.name }) },
  });
}

async function registerDevice(user: User, authenticator: SoftAuthenticator, extra: Parameters<typeof tryRegister>[2] = {}) {
  const response = await tryRegister(user, authenticator, extra);
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return expectShape(deviceOutput, response.body);
}

/** A user with one registered passkey (an unknown platform authenticator unless told otherwise). */
async function userWithPasskey(options: SoftAuthenticatorOptions = {}) {
  const user = await registerUser(server);
  const authenticator = new SoftAuthenticator(options);
  const device = await registerDevice(user, authenticator);
  return { user, authenticator, device };
}

async function authOptions(email: string) {
  const response = await server.request("/api/v1/webauthn/auth/options", { json: { email } });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return expectShape(authOptionsOutput, response.body);
}

async function verifySignIn(email: string, assertion: unknown) {
  return server.request("/webauthn/auth/verify", { json: { email, response: assertion } });
}

/** Sign-in as the pages do it: options for the email, the authenticator's assertion, verify. */
async function signIn(email: string, authenticator: SoftAuthenticator, ceremony: Partial<CeremonyOptions> = {}) {
  const options = await authOptions(email);
  return verifySignIn(email, authenticator.authenticate(options, { origin: ORIGIN, ...ceremony }));
}

function expectSignedIn(response: ApiResponse, user: User) {
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  const result = expectShape(authResultOutput, response.body);
  expect(result.user.id).toBe(user.user.id);
  return result;
}

/** A refusal: a 4xx problem, no token in the body and no session cookie. */
function expectRefused(response: ApiResponse, status = 401, code = "unauthenticated") {
  expectProblem(response, status, code);
  expect(JSON.stringify(response.body)).not.toMatch(/token|eyJ/);
  expect(response.headers.get("set-cookie")).toBeNull();
}

async function devicesOf(user: User) {
  const response = await server.request("/api/v1/webauthn/devices", { token: user.token });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return expectShape(deviceListOutput, response.body).items;
}

describe("POST /webauthn/register/options", () => {
  test("creation options for the signed-in user, with a stored challenge that lasts 5 minutes", async () => {
    const user = await registerUser(server, { name: "Jana Nováková" });
    const options = await registrationOptions(user);
    expect(options.rp).toEqual({ id: RP_ID, name: "Spolu Test" });
    expect(options.user.name).toBe(user.email);
    expect(options.user.displayName).toBe("Jana Nováková");
    // The user handle is the uuid's 16 bytes: stable, and no email in it.
    expect(Buffer.from(options.user.id, "base64url").toString("hex")).toBe(user.user.id.replaceAll("-", ""));
    expect(options.attestation).toBe("none");
    expect(options.authenticatorSelection).toMatchObject({ residentKey: "preferred", userVerification: "preferred" });
    expect(options.pubKeyCredParams.map((param) => param.alg)).toContain(-7);
    expect(options.excludeCredentials).toEqual([]);

    const [row] = await server.sql<{ purpose: string; user_id: string; lifetime: number }>(
      "select purpose, user_id, extract(epoch from expires_at - created_at)::int as lifetime from auth_challenges where challenge = $1",
      [options.challenge],
    );
    expect(row).toEqual({ purpose: "webauthn.register", user_id: user.user.id, lifetime: 300 });
    expect((await registrationOptions(user)).challenge).not.toBe(options.challenge);
  });

  test("excludes the devices registered already; needs a signed-in user", async () => {
    const { user, authenticator } = await userWithPasskey();
    const options = await registrationOptions(user);
    expect(options.excludeCredentials).toEqual([
      { id: authenticator.id, type: "public-key", transports: ["internal", "hybrid"] },
    ]);

    const anonymous = await server.request("/api/v1/webauthn/register/options", { json: {} });
    expectProblem(anonymous, 401, "unauthenticated");
  });

  test("also works without a body", async () => {
    const user = await registerUser(server);
    const response = await server.request("/webauthn/register/options", { method: "POST", token: user.token });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expectShape(registrationOptionsOutput, response.body);
  });
});

describe("POST /webauthn/register/verify", () => {
  test("stores the device with its transports, attachment, AAGUID and backup flags (never the key)", async () => {
    const user = await registerUser(server);
    const authenticator = new SoftAuthenticator({ aaguid: WINDOWS_HELLO, backupEligible: true, backedUp: true });
    const device = await registerDevice(user, authenticator);
    expect(device).toMatchObject({
      name: "Windows Hello",
      label: "windows_hello",
      labelText: "Windows Hello",
      attachment: "platform",
      transports: ["internal", "hybrid"],
      aaguid: WINDOWS_HELLO,
      backedUp: true,
      deviceType: "multiDevice",
      lastUsedAt: null,
    });
    expect(JSON.stringify(device)).not.toMatch(/publicKey/);
    expect(await devicesOf(user)).toEqual([device]);
    const [row] = await server.sql<{ credential_id: string; counter: number }>(
      "select credential_id, counter from webauthn_credentials where id = $1",
      [device.id],
    );
    expect(row).toEqual({ credential_id: authenticator.id, counter: 0 });
  });

  test("detects the label: iPhone + platform → face, Windows Hello AAGUID → windows_hello, unknown → generic", async () => {
    const user = await registerUser(server);
    const iphone = await registerDevice(user, new SoftAuthenticator({ attachment: "platform" }), {
      headers: { "User-Agent": IPHONE_UA },
    });
    expect(iphone).toMatchObject({ label: "face", labelText: "Face recognition", name: "Face recognition", aaguid: ZERO_AAGUID });
    const android = await registerDevice(user, new SoftAuthenticator({ attachment: "platform" }), {
      headers: { "Sec-CH-UA-Platform": '"Android"' },
    });
    expect(android.label).toBe("android_fingerprint");
    const hello = await registerDevice(user, new SoftAuthenticator({ aaguid: WINDOWS_HELLO, attachment: null }));
    expect(hello).toMatchObject({ label: "windows_hello", attachment: null });
    const key = await registerDevice(user, new SoftAuthenticator({ aaguid: UNKNOWN_AAGUID, attachment: "cross-platform" }), {
      headers: { "User-Agent": IPHONE_UA },
    });
    expect(key).toMatchObject({
      label: "generic",
      labelText: "Passkey",
      name: "Passkey",
      attachment: "cross-platform",
      transports: ["usb"],
    });
    expect((await devicesOf(user)).map((device) => device.label)).toEqual([
      "face",
      "android_fingerprint",
      "windows_hello",
      "generic",
    ]);
  });

  test("keeps the name given; a name must be 1-100 characters", async () => {
    const user = await registerUser(server);
    const device = await registerDevice(user, new SoftAuthenticator(), { name: "  Work laptop  " });
    expect(device.name).toBe("Work laptop");
    const tooLong = await tryRegister(user, new SoftAuthenticator(), { name: "x".repeat(101) });
    expect(expectProblem(tooLong, 400, "validation_failed").errors).toEqual([expect.objectContaining({ pointer: "/name" })]);
  });

  test("a challenge works once: the same answer again is a 400", async () => {
    const user = await registerUser(server);
    const authenticator = new SoftAuthenticator();
    const options = await registrationOptions(user);
    const json = { response: authenticator.register(options, { origin: ORIGIN }) };
    const first = await server.request("/api/v1/webauthn/register/verify", { token: user.token, json });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const again = await server.request("/api/v1/webauthn/register/verify", { token: user.token, json });
    expect(expectProblem(again, 400, "validation_failed").errors?.[0]?.pointer).toBe("/response/response/clientDataJSON");
  });

  test("refuses another user's challenge, an expired one, a wrong origin and a wrong RP id (400); stores nothing", async () => {
    const user = await registerUser(server);
    const other = await registerUser(server);
    const othersOptions = await registrationOptions(other);
    const stolen = await server.request("/api/v1/webauthn/register/verify", {
      token: user.token,
      json: { response: new SoftAuthenticator().register(othersOptions, { origin: ORIGIN }) },
    });
    expectProblem(stolen, 400, "validation_failed");

    const options = await registrationOptions(user);
    advanceClock(6 * MINUTE_MS);
    const expired = await server.request("/api/v1/webauthn/register/verify", {
      token: user.token,
      json: { response: new SoftAuthenticator().register(options, { origin: ORIGIN }) },
    });
    expectProblem(expired, 400, "validation_failed");
    resetClock();

    expectProblem(
      await tryRegister(user, new SoftAuthenticator(), { ceremony: { origin: "https://evil.test" } }),
      400,
      "validation_failed",
    );
    expectProblem(
      await tryRegister(user, new SoftAuthenticator(), { ceremony: { rpId: "evil.test" } }),
      400,
      "validation_failed",
    );
    expect(await devicesOf(user)).toEqual([]);
    // The second configured origin is accepted.
    await registerDevice(user, new SoftAuthenticator(), { ceremony: { origin: "https://m.spolu.test" } });
  });

  test("the same credential twice is a 409, also for another user", async () => {
    const { user, authenticator } = await userWithPasskey();
    expectProblem(await tryRegister(user, authenticator), 409, "conflict");
    const other = await registerUser(server);
    expectProblem(await tryRegister(other, authenticator), 409, "conflict");
    expect(await devicesOf(other)).toEqual([]);
  });

  test("malformed client data is a 400 naming the field", async () => {
    const user = await registerUser(server);
    const response = new SoftAuthenticator().register(await registrationOptions(user), { origin: ORIGIN });
    response.response.clientDataJSON = Buffer.from("not json").toString("base64url");
    const answer = await server.request("/api/v1/webauthn/register/verify", { token: user.token, json: { response } });
    expect(expectProblem(answer, 400, "validation_failed").errors?.[0]?.pointer).toBe("/response/response/clientDataJSON");
    const garbage = new SoftAuthenticator().register(await registrationOptions(user), { origin: ORIGIN });
    garbage.response.attestationObject = "AAAA";
    const broken = await server.request("/api/v1/webauthn/register/verify", { token: user.token, json: { response: garbage } });
    expect(expectProblem(broken, 400, "validation_failed").errors?.[0]?.pointer).toBe("/response");
    expect(await devicesOf(user)).toEqual([]);
  });
});

describe("GET, PATCH, DELETE /webauthn/devices/{id}", () => {
  test("rename: the name changes, the label stays", async () => {
    const { user, device } = await userWithPasskey({ aaguid: WINDOWS_HELLO });
    const response = await server.request(`/api/v1/webauthn/devices/${device.id}`, {
      method: "PATCH",
      token: user.token,
      json: { name: "Desk PC" },
    });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(expectShape(deviceOutput, response.body)).toMatchObject({ id: device.id, name: "Desk PC", label: "windows_hello" });
    expect((await devicesOf(user)).map((item) => item.name)).toEqual(["Desk PC"]);
    const empty = await server.request(`/api/v1/webauthn/devices/${device.id}`, {
      method: "PATCH",
      token: user.token,
      json: { name: " " },
    });
    expect(expectProblem(empty, 400, "validation_failed").errors?.[0]?.pointer).toBe("/name");
  });

  test("another user's device is a 404 on PATCH and DELETE and stays as it was", async () => {
    const { user, device, authenticator } = await userWithPasskey();
    const stranger = await registerUser(server);
    const patch = await server.request(`/api/v1/webauthn/devices/${device.id}`, {
      method: "PATCH",
      token: stranger.token,
      json: { name: "Mine now" },
    });
    expectProblem(patch, 404, "not_found");
    expectProblem(
      await server.request(`/api/v1/webauthn/devices/${device.id}`, { method: "DELETE", token: stranger.token }),
      404,
      "not_found",
    );
    expect(await devicesOf(stranger)).toEqual([]);
    expect(await devicesOf(user)).toEqual([device]);
    expectSignedIn(await signIn(user.email, authenticator), user);
  });

  test("DELETE removes the device: it no longer signs in", async () => {
    const { user, device, authenticator } = await userWithPasskey();
    expectSignedIn(await signIn(user.email, authenticator), user);
    const removed = await server.request(`/api/v1/webauthn/devices/${device.id}`, { method: "DELETE", token: user.token });
    expect(removed.status).toBe(204);
    expect(await devicesOf(user)).toEqual([]);
    expectRefused(await signIn(user.email, authenticator));
    expectProblem(
      await server.request(`/api/v1/webauthn/devices/${device.id}`, { method: "DELETE", token: user.token }),
      404,
      "not_found",
    );
  });
  test("DELETE /webauthn/devices/{id} – 409 for the only way to sign in; once another way in exists, it can go", async () => {
    const { user, device, authenticator } = await userWithPasskey();
    // As an account made by signing in with Google and then unlinked from it: a passkey and nothing else.
    await server.sql(`update users set password_hash = null where id = $1`, [user.user.id]);
    const remove = (id: string) => server.request(`/api/v1/webauthn/devices/${id}`, { method: "DELETE", token: user.token });

    const refused = expectProblem(await remove(device.id), 409, "conflict");
    expect(refused.detail).toMatch(/only way to sign in/);
    expect(await devicesOf(user)).toEqual([device]);
    expectSignedIn(await signIn(user.email, authenticator), user);

    // A second passkey: either may go, the other then being the last.
    const spare = await registerDevice(user, new SoftAuthenticator());
    expect((await remove(device.id)).status).toBe(204);
    expectProblem(await remove(spare.id), 409, "conflict");

    // A linked external account counts as a way in too (the same rule as unlinking one).
    await server.sql(`insert into user_identities (user_id, provider, subject, email) values ($1, 'github', $2, null)`, [
      user.user.id,
      `gh-${user.user.id}`,
    ]);
    expect((await remove(spare.id)).status).toBe(204);
    expect(await devicesOf(user)).toEqual([]);
    const [identity] = await server.sql<{ id: string }>(`select id from user_identities where user_id = $1`, [user.user.id]);
    expectProblem(
      await server.request(`/api/v1/auth/identities/${identity!.id}`, { method: "DELETE", token: user.token }),
      409,
      "conflict",
    );
  });
});

describe("POST /webauthn/auth/options", () => {
  test("lists the account's passkeys; needs no sign-in", async () => {
    const { user, authenticator } = await userWithPasskey();
    const options = await authOptions(user.email.toUpperCase());
    expect(options.rpId).toBe(RP_ID);
    expect(options.allowCredentials).toEqual([{ id: authenticator.id, type: "public-key", transports: ["internal", "hybrid"] }]);
    const [row] = await server.sql<{ purpose: string; email: string; user_id: string | null }>(
      "select purpose, email, user_id from auth_challenges where challenge = $1",
      [options.challenge],
    );
    expect(row).toEqual({ purpose: "webauthn.authenticate", email: user.email, user_id: null });
  });

  test("an unknown email gets an answer of the same shape, stable across calls", async () => {
    const { user } = await userWithPasskey();
    const known = await authOptions(user.email);
    const unknownEmail = `nobody-${Date.now()}@example.com`;
    const first = await authOptions(unknownEmail);
    const second = await authOptions(unknownEmail);
    expect(Object.keys(first).sort()).toEqual(Object.keys(known).sort());
    expect(first.allowCredentials).toHaveLength(1);
    expect(Object.keys(first.allowCredentials![0]!).sort()).toEqual(Object.keys(known.allowCredentials![0]!).sort());
    expect(first.allowCredentials![0]!.id).toHaveLength(known.allowCredentials![0]!.id.length);
    expect(second.allowCredentials).toEqual(first.allowCredentials);
    expect(second.challenge).not.toBe(first.challenge);
    expect(first.allowCredentials).not.toEqual(known.allowCredentials);
    expect((await authOptions(`other-${unknownEmail}`)).allowCredentials).not.toEqual(first.allowCredentials);
    // An account without passkeys looks the same as no account.
    const plain = await registerUser(server);
    const withoutPasskeys = await authOptions(plain.email);
    expect(Object.keys(withoutPasskeys).sort()).toEqual(Object.keys(first).sort());
    expect(withoutPasskeys.allowCredentials).toHaveLength(1);
    expectRefused(await verifySignIn(unknownEmail, new SoftAuthenticator().authenticate(first, { origin: ORIGIN })));
  });

  test("an invalid email is a 400 naming the field", async () => {
    const response = await server.request("/api/v1/webauthn/auth/options", { json: { email: "not-an-email" } });
    expect(expectProblem(response, 400, "validation_failed").errors?.[0]?.pointer).toBe("/email");
  });

  test("challenges older than an hour are deleted when a new one is handed out", async () => {
    const user = await registerUser(server);
    const old = await authOptions(user.email);
    advanceClock(30 * MINUTE_MS);
    const recent = await authOptions(user.email);
    advanceClock(31 * MINUTE_MS);
    const fresh = await authOptions(user.email);
    const left = await server.sql<{ challenge: string }>(
      "select challenge from auth_challenges where challenge = any($1::text[])",
      [`{${[old.challenge, recent.challenge, fresh.challenge].join(",")}}`],
    );
    expect(left.map((row) => row.challenge).sort()).toEqual([recent.challenge, fresh.challenge].sort());
  });
});

describe("POST /webauthn/auth/verify", () => {
  test("signs in: a working JWT, the session cookie, the counter and last use recorded", async () => {
    const { user, authenticator, device } = await userWithPasskey({ counter: 7 });
    const response = await signIn(user.email, authenticator);
    const result = expectSignedIn(response, user);
    expect(result.user.email).toBe(user.email);

    const me = await server.request("/auth/me", { token: result.token });
    expect(me.status).toBe(200);
    expect(expectShape(userOutput, me.body).id).toBe(user.user.id);
    const cookie = response.headers.get("set-cookie");
    expect(cookie).toMatch(/^spolu_session=[^;]+;.*HttpOnly/i);
    const byCookie = await server.request("/auth/me", { headers: { Cookie: cookie!.split(";")[0]! } });
    expect(byCookie.status).toBe(200);
    expect(byCookie.body.id).toBe(user.user.id);

    const [row] = await server.sql<{ counter: number }>("select counter from webauthn_credentials where id = $1", [device.id]);
    expect(row!.counter).toBe(8);
    const [listed] = await devicesOf(user);
    expect(listed!.lastUsedAt).not.toBeNull();
    // The API path answers too.
    const options = await authOptions(user.email);
    const viaApi = await server.request("/api/v1/webauthn/auth/verify", {
      json: { email: user.email, response: authenticator.authenticate(options, { origin: ORIGIN }) },
    });
    expectSignedIn(viaApi, user);
  });

  test("a passkey that does not count (counter 0) signs in again and again", async () => {
    const { user, authenticator } = await userWithPasskey({ countsUses: false, backupEligible: true, backedUp: true });
    expectSignedIn(await signIn(user.email, authenticator), user);
    expectSignedIn(await signIn(user.email, authenticator), user);
  });

  test("a wrong signature is refused with no token", async () => {
    const { user, authenticator } = await userWithPasskey();
    // Someone who knows the credential id but holds another key.
    expectRefused(await signIn(user.email, authenticator.impostor()));
    // A signature that does not cover what was sent: the counter changed after signing.
    const options = await authOptions(user.email);
    const assertion = authenticator.authenticate(options, { origin: ORIGIN });
    const data = Buffer.from(assertion.response.authenticatorData, "base64url");
    data[36] = (data[36] ?? 0) + 1;
    assertion.response.authenticatorData = data.toString("base64url");
    expectRefused(await verifySignIn(user.email, assertion));
    expectSignedIn(await signIn(user.email, authenticator), user);
  });

  test("a replayed challenge is refused: the same assertion works once", async () => {
    const { user, authenticator } = await userWithPasskey();
    const options = await authOptions(user.email);
    const assertion = authenticator.authenticate(options, { origin: ORIGIN });
    expectSignedIn(await verifySignIn(user.email, assertion), user);
    expectRefused(await verifySignIn(user.email, assertion));
    // Also with a fresh signature over the used challenge.
    expectRefused(await verifySignIn(user.email, authenticator.authenticate(options, { origin: ORIGIN })));
  });

  test("a failed attempt uses the challenge up too", async () => {
    const { user, authenticator } = await userWithPasskey();
    const options = await authOptions(user.email);
    expectRefused(await verifySignIn(user.email, authenticator.authenticate(options, { origin: "https://evil.test" })));
    expectRefused(await verifySignIn(user.email, authenticator.authenticate(options, { origin: ORIGIN })));
  });

  test("an expired challenge is refused (after 5 minutes, not before)", async () => {
    const { user, authenticator } = await userWithPasskey();
    const options = await authOptions(user.email);
    advanceClock(6 * MINUTE_MS);
    expectRefused(await verifySignIn(user.email, authenticator.authenticate(options, { origin: ORIGIN })));
    const later = await authOptions(user.email);
    advanceClock(4 * MINUTE_MS);
    expectSignedIn(await verifySignIn(user.email, authenticator.authenticate(later, { origin: ORIGIN })), user);
  });

  test("a wrong origin or RP id is refused", async () => {
    const { user, authenticator } = await userWithPasskey();
    expectRefused(await signIn(user.email, authenticator, { origin: "https://evil.test" }));
    expectRefused(await signIn(user.email, authenticator, { origin: "http://spolu.test" }));
    expectRefused(await signIn(user.email, authenticator, { rpId: "evil.test" }));
    expectSignedIn(await signIn(user.email, authenticator, { origin: "https://m.spolu.test" }), user);
  });

  test("an unknown credential is refused", async () => {
    const { user } = await userWithPasskey();
    expectRefused(await signIn(user.email, new SoftAuthenticator()));
  });

  test("another user's credential cannot sign in as this user; a challenge is bound to its email", async () => {
    const victim = await userWithPasskey();
    const attacker = await userWithPasskey();
    // The attacker's own, valid passkey, presented for the victim's email.
    expectRefused(await signIn(victim.user.email, attacker.authenticator));
    // Options asked for the attacker's email, answered with the attacker's passkey, sent for the victim.
    const options = await authOptions(attacker.user.email);
    expectRefused(await verifySignIn(victim.user.email, attacker.authenticator.authenticate(options, { origin: ORIGIN })));
    // Options asked for the victim's email, answered with the attacker's passkey, sent for the attacker.
    const victims = await authOptions(victim.user.email);
    expectRefused(await verifySignIn(attacker.user.email, attacker.authenticator.authenticate(victims, { origin: ORIGIN })));
    expectSignedIn(await signIn(attacker.user.email, attacker.authenticator), attacker.user);
  });

  test("a counter that went backwards is refused and not recorded", async () => {
    const { user, authenticator, device } = await userWithPasskey({ counter: 10 });
    expectSignedIn(await signIn(user.email, authenticator), user);
    const counter = async () =>
      (await server.sql<{ counter: number }>("select counter from webauthn_credentials where id = $1", [device.id]))[0]!.counter;
    expect(await counter()).toBe(11);
    expectRefused(await signIn(user.email, authenticator, { counter: 5 }));
    expectRefused(await signIn(user.email, authenticator, { counter: 11 }));
    expect(await counter()).toBe(11);
    expectSignedIn(await signIn(user.email, authenticator, { counter: 12 }), user);
    expect(await counter()).toBe(12);
  });

  test("two sign-ins at once with the same counter: only one gets in", async () => {
    const { user, authenticator } = await userWithPasskey({ counter: 3 });
    const [first, second] = await Promise.all([authOptions(user.email), authOptions(user.email)]);
    const answers = await Promise.all([
      verifySignIn(user.email, authenticator.authenticate(first, { origin: ORIGIN, counter: 4 })),
      verifySignIn(user.email, authenticator.authenticate(second, { origin: ORIGIN, counter: 4 })),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 401]);
  });

  test("malformed input is a 400 with no token", async () => {
    const { user, authenticator } = await userWithPasskey();
    const assertion = authenticator.authenticate(await authOptions(user.email), { origin: ORIGIN });
    expectRefused(
      await verifySignIn(user.email, { ...assertion, response: { ...assertion.response, signature: "***" } }),
      400,
      "validation_failed",
    );
    expectRefused(
      await verifySignIn(user.email, { ...assertion, response: { ...assertion.response, clientDataJSON: "bm90IGpzb24" } }),
      400,
      "validation_failed",
    );
    expectRefused(await server.request("/webauthn/auth/verify", { json: { response: assertion } }), 400, "validation_failed");
    // Well-formed base64url that is not authenticator data: refused like any failed assertion.
    const truncated = authenticator.authenticate(await authOptions(user.email), { origin: ORIGIN });
    expectRefused(
      await verifySignIn(user.email, { ...truncated, response: { ...truncated.response, authenticatorData: "AAAA" } }),
    );
  });
});

describe("after the account is deleted", () => {
  test("its passkey no longer signs in, and the email looks like any unknown one", async () => {
    const { user, authenticator } = await userWithPasskey();
    expectSignedIn(await signIn(user.email, authenticator), user);
    const deleted = await server.request("/delete-account", {
      method: "DELETE",
      token: user.token,
      json: { password: user.password },
    });
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(204);
    expectRefused(await signIn(user.email, authenticator));
    expect((await authOptions(user.email)).allowCredentials).toEqual((await authOptions(user.email)).allowCredentials);
  });
});
