import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { authResultOutput, userOutput } from "../../lib/accounts/schema";
import { expectProblem, expectShape, registerUser, startTestServer, type TestServer } from "./harness";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe("POST /auth/register", () => {
  test("creates the account, returns a working token and stores an argon2id hash", async () => {
    const response = await server.request("/auth/register", {
      json: { email: "  Jana.Novak@Example.COM ", password: "correct horse battery", name: "Jana" },
    });
    expect(response.status).toBe(201);
    const result = expectShape(authResultOutput, response.body);
    expect(result.user).toMatchObject({ email: "jana.novak@example.com", name: "Jana", locale: "en", isAdmin: false });
    expect(JSON.stringify(response.body)).not.toMatch(/password|hash/i);
    expect(response.headers.get("set-cookie")).toMatch(/spolu_session=.+HttpOnly/i);

    const me = await server.request("/auth/me", { token: result.token });
    expect(me.status).toBe(200);
    expect(me.body.id).toBe(result.user.id);

    const [row] = await server.sql<{ password_hash: string }>("select password_hash from users where id = $1", [result.user.id]);
    expect(row!.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  });

  test("answers 409 for an email that is taken, whatever its case", async () => {
    const { email } = await registerUser(server);
    const response = await server.request("/auth/register", {
      json: { email: email.toUpperCase(), password: "another password" },
    });
    expectProblem(response, 409, "conflict");
  });

  test("answers 400 naming each bad field: missing, wrong type, too long, unknown", async () => {
    const missing = expectProblem(
      await server.request("/auth/register", { json: { password: "long enough pw" } }),
      400,
      "validation_failed",
    );
    expect(missing.errors).toContainEqual(expect.objectContaining({ in: "body", pointer: "/email" }));

    const wrongType = expectProblem(
      await server.request("/auth/register", { json: { email: "a@example.com", password: 12345678 } }),
      400,
      "validation_failed",
    );
    expect(wrongType.errors?.map((e) => e.pointer)).toEqual(["/password"]);

    const tooLong = expectProblem(
      await server.request("/auth/register", { json: { email: "b@example.com", password: "x".repeat(257) } }),
      400,
      "validation_failed",
    );
    expect(tooLong.errors).toEqual([expect.objectContaining({ pointer: "/password", detail: expect.stringMatching(/256/) })]);

    const tooShort = expectProblem(
      await server.request("/auth/register", { json: { email: "c@example.com", password: "short" } }),
      400,
      "validation_failed",
    );
    expect(tooShort.errors?.[0]?.pointer).toBe("/password");

    const unknown = expectProblem(
      await server.request("/auth/register", {
        json: { email: "d@example.com", password: "long enough pw", isAdmin: true, tokenVersion: 9 },
      }),
      400,
      "validation_failed",
    );
    expect(unknown.errors?.map((e) => e.pointer).sort()).toEqual(["/isAdmin", "/tokenVersion"]);
    expect(await server.sql("select 1 from users where email = 'd@example.com'")).toEqual([]);
  });

  test("a name with a bidirectional override or a control character is refused, naming the field", async () => {
    // "Eve\u202Efdp.exe" would show as "Eveexe.pdf" wherever the name appears.
    for (const name of ["Eve\u202Efdp.exe", "Eve\u2066x\u2069", "Eve\u0007"]) {
      const refused = expectProblem(
        await server.request("/auth/register", { json: { email: "e@example.com", password: "long enough pw", name } }),
        400,
        "validation_failed",
      );
      expect(refused.errors).toEqual([expect.objectContaining({ in: "body", pointer: "/name" })]);
    }
    // Hebrew and other right-to-left names are welcome as they are.
    const { token } = await registerUser(server, { name: "אלישבע" });
    expect((await server.request("/auth/me", { token })).body.name).toBe("אלישבע");
    const renamed = await server.request("/auth/profile", { method: "PATCH", token, json: { name: "x\u202Ey" } });
    expect(expectProblem(renamed, 400, "validation_failed").errors?.[0]?.pointer).toBe("/name");
  });

  test("a very common password is refused (as typed or in other case), naming the field", async () => {
    for (const password of ["password1", "Qwertyuiop", "iloveyou"]) {
      const problem = expectProblem(
        await server.request("/auth/register", { json: { email: "common@example.com", password } }),
        400,
        "validation_failed",
      );
      expect(problem.errors).toEqual([
        expect.objectContaining({ pointer: "/password", detail: expect.stringMatching(/common/) }),
      ]);
    }
    const { token, password } = await registerUser(server);
    const change = expectProblem(
      await server.request("/auth/change-password", { token, json: { currentPassword: password, newPassword: "12345678" } }),
      400,
      "validation_failed",
    );
    expect(change.errors?.[0]?.pointer).toBe("/newPassword");
  });

  test("a 100-byte password and a 256-character one both work", async () => {
    for (const password of ["ž".repeat(50), "p".repeat(256)]) {
      const { email } = await registerUser(server, { password });
      expect((await server.request("/auth/login", { json: { email, password } })).status).toBe(200);
    }
  });
});

describe("POST /auth/login", () => {
  test("signs in with the right password, email in any case", async () => {
    const { email, password, user } = await registerUser(server);
    const response = await server.request("/auth/login", { json: { email: ` ${email.toUpperCase()}`, password } });
    expect(response.status).toBe(200);
    expect(expectShape(authResultOutput, response.body).user.id).toBe(user.id);
  });

  test("answers the same 401 for a wrong password and an unknown email", async () => {
    const { email } = await registerUser(server);
    const wrongPassword = expectProblem(
      await server.request("/auth/login", { json: { email, password: "not the password" } }),
      401,
      "unauthenticated",
    );
    const unknownEmail = expectProblem(
      await server.request("/auth/login", { json: { email: "nobody@example.com", password: "not the password" } }),
      401,
      "unauthenticated",
    );
    const { requestId: _a, ...first } = wrongPassword as Record<string, unknown>;
    const { requestId: _b, ...second } = unknownEmail as Record<string, unknown>;
    expect(first).toEqual(second);
  });

  test("an unknown email takes about as long as a wrong password (no account probing by timing)", async () => {
    const { email } = await registerUser(server);
    const median = async (loginEmail: string) => {
      const times: number[] = [];
      for (let i = 0; i < 9; i++) {
        const started = performance.now();
        await server.request("/auth/login", { json: { email: loginEmail, password: `wrong-${i}` } });
        times.push(performance.now() - started);
      }
      return times.sort((a, b) => a - b)[4]!;
    };
    const known = await median(email);
    const unknown = await median(`ghost-${Date.now()}@example.com`);
    // Without the dummy hash an unknown email answers in ~1 ms against tens of ms for a real check.
    expect(unknown).toBeGreaterThan(known * 0.5);
  });
});

describe("GET /auth/me", () => {
  test("answers 401 without a token, with a forged one, and with the session cookie it accepts", async () => {
    expectProblem(await server.request("/auth/me"), 401, "unauthenticated");
    expectProblem(await server.request("/auth/me", { token: "not.a.jwt" }), 401, "unauthenticated");
    const { token } = await registerUser(server);
    const [header, payload] = token.split(".");
    expectProblem(await server.request("/auth/me", { token: `${header}.${payload}.` }), 401, "unauthenticated");
    const viaCookie = await server.request("/auth/me", { headers: { Cookie: `spolu_session=${token}` } });
    expect(viaCookie.status).toBe(200);
    expectShape(userOutput, viaCookie.body);
  });
});

describe("POST /auth/change-password", () => {
  test("needs the current password and stops every earlier token", async () => {
    const { email, password, token } = await registerUser(server);
    const wrong = expectProblem(
      await server.request("/auth/change-password", {
        token,
        json: { currentPassword: "wrong one", newPassword: "a brand new pw" },
      }),
      400,
      "validation_failed",
    );
    expect(wrong.errors?.[0]?.pointer).toBe("/currentPassword");
    expect((await server.request("/auth/me", { token })).status).toBe(200);

    const changed = await server.request("/auth/change-password", {
      token,
      json: { currentPassword: password, newPassword: "a brand new pw" },
    });
    expect(changed.status).toBe(200);
    const fresh = expectShape(authResultOutput, changed.body).token;

    expectProblem(await server.request("/auth/me", { token }), 401, "unauthenticated");
    expect((await server.request("/auth/me", { token: fresh })).status).toBe(200);
    expectProblem(await server.request("/auth/login", { json: { email, password } }), 401, "unauthenticated");
    expect((await server.request("/auth/login", { json: { email, password: "a brand new pw" } })).status).toBe(200);
  });
});

describe("PATCH /auth/profile", () => {
  test("updates name, locale, time zone and avatar, and only those", async () => {
    const { token, user } = await registerUser(server);
    const response = await server.request("/auth/profile", {
      method: "PATCH",
      token,
      json: { name: "Jana Nováková", locale: "cs", timeZone: "Europe/Prague", avatarUrl: "https://example.com/a.png" },
    });
    expect(response.status).toBe(200);
    expect(expectShape(userOutput, response.body)).toMatchObject({
      id: user.id,
      email: user.email,
      name: "Jana Nováková",
      locale: "cs",
      timeZone: "Europe/Prague",
      avatarUrl: "https://example.com/a.png",
    });
    expect((await server.request("/auth/me", { token })).body.locale).toBe("cs");
  });

  test("rejects a bad time zone, locale or avatar URL and changes nothing", async () => {
    const { token } = await registerUser(server);
    const problem = expectProblem(
      await server.request("/auth/profile", {
        method: "PATCH",
        token,
        json: { name: "Changed", timeZone: "Mars/Olympus", locale: "de", avatarUrl: "javascript:alert(1)" },
      }),
      400,
      "validation_failed",
    );
    expect(problem.errors?.map((e) => e.pointer).sort()).toEqual(["/avatarUrl", "/locale", "/timeZone"]);
    expect((await server.request("/auth/me", { token })).body.name).toBe("Test User");
  });

  test("changing the email needs the current password, and a taken email is 409", async () => {
    const { token, password } = await registerUser(server);
    const other = await registerUser(server);
    const missing = expectProblem(
      await server.request("/auth/profile", { method: "PATCH", token, json: { email: "new@example.com" } }),
      400,
      "validation_failed",
    );
    expect(missing.errors?.[0]?.pointer).toBe("/currentPassword");
    expectProblem(
      await server.request("/auth/profile", { method: "PATCH", token, json: { email: other.email, currentPassword: password } }),
      409,
      "conflict",
    );
    const changed = await server.request("/auth/profile", {
      method: "PATCH",
      token,
      json: { email: "New.Address@Example.com", currentPassword: password },
    });
    expect(changed.status).toBe(200);
    expect(changed.body.email).toBe("new.address@example.com");
    expect((await server.request("/auth/login", { json: { email: "new.address@example.com", password } })).status).toBe(200);
  });
});

/** The language cookie a response sets for the pages (lib/i18n/locale-cookie.ts), or undefined. */
function localeCookie(headers: Headers): string | undefined {
  return headers.getSetCookie().find((cookie) => cookie.startsWith("NEXT_LOCALE="));
}

describe("the pages' language cookie (NEXT_LOCALE)", () => {
  test("POST /auth/register, /auth/login and PATCH /auth/profile set it to the profile's language tag", async () => {
    const email = `locale-${randomUUID()}@example.com`;
    const password = `pw-${randomUUID()}`;
    const registered = await server.request("/auth/register", { json: { email, password, locale: "ua" } });
    expect(registered.status).toBe(201);
    // Ukrainian is `ua` in Spolu and the API, `uk` for next-intl, which reads this cookie.
    expect(localeCookie(registered.headers)).toMatch(/^NEXT_LOCALE=uk; Max-Age=31536000; Path=\/; SameSite=Lax$/);

    const token = registered.body.token as string;
    const moved = await server.request("/auth/profile", { method: "PATCH", token, json: { locale: "cs" } });
    expect(moved.status).toBe(200);
    expect(localeCookie(moved.headers)).toMatch(/^NEXT_LOCALE=cs;/);

    const signedIn = await server.request("/auth/login", { json: { email, password } });
    expect(signedIn.status).toBe(200);
    expect(localeCookie(signedIn.headers)).toMatch(/^NEXT_LOCALE=cs;/);
    // Scripts may read and replace it: the language switcher writes it through document.cookie.
    expect(localeCookie(signedIn.headers)).not.toMatch(/HttpOnly/i);
  });

  test("PATCH /auth/profile without a new language and a failed sign-in leave it alone", async () => {
    const { token, email } = await registerUser(server, { locale: "he" });
    const renamed = await server.request("/auth/profile", { method: "PATCH", token, json: { name: "Dana" } });
    expect(renamed.status).toBe(200);
    expect(localeCookie(renamed.headers)).toBeUndefined();

    const refused = await server.request("/auth/login", { json: { email, password: "not the password" } });
    expect(refused.status).toBe(401);
    expect(localeCookie(refused.headers)).toBeUndefined();
  });
});

describe("POST /auth/logout", () => {
  test("everywhere=true stops every token of the user", async () => {
    const { token, email, password } = await registerUser(server);
    const second = (await server.request("/auth/login", { json: { email, password } })).body.token;
    const response = await server.request("/auth/logout?everywhere=true", { method: "POST", token });
    expect(response.status).toBe(204);
    expect(response.headers.get("set-cookie")).toMatch(/spolu_session=;/);
    expectProblem(await server.request("/auth/me", { token: second }), 401, "unauthenticated");
  });
});
