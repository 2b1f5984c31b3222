import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from "vitest";
import { advanceClock, resetClock } from "../../lib/clock";
import { emailLogEntryOutput, emailLogPageOutput, reminderOutput } from "../../lib/email/schema";
import { sendEmailToUser } from "../../lib/email/service";
import {
  ADMIN_EMAIL,
  createTask,
  expectProblem,
  expectShape,
  registerUser,
  startTestServer,
  type RequestOptions,
  type TestServer,
} from "./harness";
import { startResendStub, type ResendStub } from "./resend-stub";
import { startSmtpSink, type SmtpSink } from "./smtp-sink";

/*
 * Email against real partners on loopback: an SMTP server (smtp-server, messages parsed with mailparser) and a stub
 * of Resend's HTTP API. Each transport gets its own server, one after the other (the configuration is per process).
 */

type User = Awaited<ReturnType<typeof registerUser>>;

const MISSING_ID = "00000000-0000-4000-8000-000000000000";
const FROM = "Spolu <noreply@spolu.test>";
const APP_URL = "https://spolu.example";
/** 14:00 in Prague, 15:00 in Jerusalem. */
const DUE_AT = "2026-03-05T13:00:00.000Z";

let server: TestServer;
const api = (path: string, options?: RequestOptions) => server.request(`/api/v1${path}`, options);

async function registerAdmin(): Promise<User> {
  return registerUser(server, { email: ADMIN_EMAIL, name: "Admin" });
}

async function setProfile(who: User, json: { locale: string; timeZone: string }) {
  const response = await server.request("/auth/profile", { method: "PATCH", token: who.token, json });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
}

/** Makes `who` an assignee of the owner's task the way people join one: an assign request they accept. */
async function assign(owner: User, taskId: string, who: User) {
  const request = await api(`/tasks/${taskId}/collaboration-requests`, {
    token: owner.token,
    json: { kind: "assign", userId: who.user.id },
  });
  expect(request.status, JSON.stringify(request.body)).toBe(201);
  const accepted = await api(`/collaboration-requests/${request.body.id}/accept`, { method: "POST", token: who.token });
  expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
}

const sendEmail = (who: User, json: unknown, path = "/email/send") => server.request(path, { token: who.token, json });
const remind = (who: User, json: unknown) => server.request("/email/reminder", { token: who.token, json });

async function sent(who: User, json: unknown) {
  const response = await sendEmail(who, json);
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return expectShape(emailLogEntryOutput, response.body);
}

async function reminded(who: User, json: unknown) {
  const response = await remind(who, json);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return expectShape(reminderOutput, response.body);
}

async function emailLog(admin: User, query = "") {
  const response = await server.request(`/email/log${query}`, { token: admin.token });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return expectShape(emailLogPageOutput, response.body);
}

const isVerificationLink = (message: SmtpSink["messages"][number]) => message.text.includes("/verify-email#token=");

/** What the SMTP server received for `address` but the verification link every registration sends. */
const received = (sink: SmtpSink, address: string) => sink.to(address).filter((message) => !isVerificationLink(message));

/**
 * How many messages the SMTP server received, leaving out verification links: registration sends its link after
 * answering, so a link for a user registered just before a count can arrive while a test checks that nothing is sent.
 */
const sentSoFar = (sink: SmtpSink) => sink.messages.filter((message) => !isVerificationLink(message)).length;

describe("with the SMTP transport", () => {
  let sink: SmtpSink;
  let admin: User;

  beforeAll(async () => {
    sink = await startSmtpSink({
      refuse: (address) => (address.startsWith("bounce") ? { code: 550, message: "5.1.1 No such user here" } : null),
    });
    server = await startTestServer({ EMAIL_TRANSPORT: "smtp", SMTP_URL: sink.url, EMAIL_FROM: FROM, APP_URL });
    admin = await registerAdmin();
  });
  afterAll(async () => {
    await server?.close();
    await sink?.close();
  });
  afterEach(() => resetClock());

  /** A task owned by a fresh English-speaking user, assigned to themself and to a Czech and a Hebrew speaker. */
  async function taskWithThreeAssignees(title: string) {
    const owner = await registerUser(server, { name: "Olga" });
    const czech = await registerUser(server, { name: "Petr" });
    const hebrew = await registerUser(server, { name: "Noa" });
    await setProfile(czech, { locale: "cs", timeZone: "Europe/Prague" });
    await setProfile(hebrew, { locale: "he", timeZone: "Asia/Jerusalem" });
    const task = await createTask(server, owner.token, { title, dueAt: DUE_AT, assigneeIds: [owner.user.id] });
    await assign(owner, task.id, czech);
    await assign(owner, task.id, hebrew);
    return { owner, czech, hebrew, task };
  }

  describe("POST /email/send", () => {
    test("an admin's email arrives as given (from, to, subject, text, html) and is logged as sent", async () => {
      const to = `someone-${randomUUID()}@example.com`;
      const entry = await sent(admin, {
        to,
        subject: "Maintenance tonight",
        text: "Spolu restarts at 22:00.",
        html: "<p>Spolu restarts at <b>22:00</b>.</p>",
      });
      expect(entry).toMatchObject({
        to,
        subject: "Maintenance tonight",
        kind: "admin",
        transport: "smtp",
        status: "sent",
        error: null,
        userId: null,
      });

      const [message, ...more] = sink.to(to);
      expect(more).toEqual([]);
      expect(message).toMatchObject({ from: "noreply@spolu.test", to: [to], subject: "Maintenance tonight" });
      expect(message!.envelope.from).toBe("noreply@spolu.test");
      expect(message!.text.trim()).toBe("Spolu restarts at 22:00.");
      expect(message!.html).toContain("<p>Spolu restarts at <b>22:00</b>.</p>");
      expect(message!.parsed.messageId).toBe(entry.providerMessageId);

      const log = await emailLog(admin, "?limit=1");
      expect(log.items).toEqual([entry]);
    });

    test("answers the same under /api/v1; `userId` sends to that account's address, an unknown one is a 400", async () => {
      const user = await registerUser(server);
      const response = await sendEmail(
        admin,
        { userId: user.user.id, subject: "Your account", text: "Hello." },
        "/api/v1/email/send",
      );
      expect(response.status).toBe(201);
      const entry = expectShape(emailLogEntryOutput, response.body);
      expect(entry).toMatchObject({ to: user.email, userId: user.user.id, status: "sent" });
      expect(received(sink, user.email).map((message) => message.subject)).toEqual(["Your account"]);

      const problem = expectProblem(
        await sendEmail(admin, { userId: MISSING_ID, subject: "S", text: "T" }),
        400,
        "validation_failed",
      );
      expect(problem.errors).toEqual([{ in: "body", pointer: "/userId", detail: "has no account" }]);
    });

    test("a signed-in non-admin gets 403 and a stranger 401; nothing is sent", async () => {
      const user = await registerUser(server);
      const before = sentSoFar(sink);
      const json = { to: "victim@example.com", subject: "Hi", text: "Hi" };
      expectProblem(await sendEmail(user, json), 403, "forbidden");
      expectProblem(await server.request("/email/send", { json }), 401, "unauthenticated");
      expect(sentSoFar(sink)).toBe(before);
    });

    test("400 naming each bad field; nothing is sent", async () => {
      const base = { to: "someone@example.com", subject: "Subject", text: "Text" };
      const cases: [unknown, string[]][] = [
        [{ ...base, to: "not-an-email" }, ["/to"]],
        [{ subject: "S", text: "T" }, ["/to"]],
        [{ ...base, userId: MISSING_ID }, ["/userId"]],
        [{ ...base, userId: "nope", to: undefined }, ["/userId"]],
        [{ ...base, subject: "  " }, ["/subject"]],
        [{ ...base, subject: "Two\nlines" }, ["/subject"]],
        [{ ...base, subject: "x".repeat(201) }, ["/subject"]],
        [{ ...base, text: "" }, ["/text"]],
        [{ ...base, html: 42 }, ["/html"]],
        [{ ...base, html: "" }, ["/html"]],
        [{ ...base, cc: "other@example.com" }, ["/cc"]],
      ];
      const before = sentSoFar(sink);
      for (const [json, pointers] of cases) {
        const problem = expectProblem(await sendEmail(admin, json), 400, "validation_failed");
        expect(
          problem.errors?.map((error) => error.pointer),
          JSON.stringify(json),
        ).toEqual(pointers);
      }
      expect(sentSoFar(sink)).toBe(before);
    });

    test("a recipient the mail server refuses is a failed log entry with the server's reason, not a 500", async () => {
      const response = await sendEmail(admin, { to: "bounce@example.com", subject: "Will bounce", text: "Nobody reads this" });
      expect(response.status, JSON.stringify(response.body)).toBe(201);
      const entry = expectShape(emailLogEntryOutput, response.body);
      expect(entry).toMatchObject({ status: "failed", transport: "smtp", providerMessageId: null });
      expect(entry.error).toMatch(/refused/);
      expect(entry.error).toContain("550 5.1.1 No such user here");
      expect(sink.to("bounce@example.com")).toEqual([]);
      expect((await emailLog(admin, "?status=failed")).items.map((item) => item.id)).toContain(entry.id);
      expect((await emailLog(admin, "?status=sent")).items.map((item) => item.id)).not.toContain(entry.id);
    });
  });

  describe("POST /email/reminder", () => {
    test("reaches each assignee in their own language and time zone, with the title and the note, and not the caller", async () => {
      const { owner, czech, hebrew, task } = await taskWithThreeAssignees("Zalít květiny <hned>");
      const result = await reminded(owner, { taskId: task.id, message: "  Nezapomeň, prosím!  " });
      expect(result).toEqual({
        taskId: task.id,
        results: [
          { userId: czech.user.id, name: "Petr", status: "sent", reason: null, emailLogId: expect.any(String) },
          { userId: hebrew.user.id, name: "Noa", status: "sent", reason: null, emailLogId: expect.any(String) },
        ],
      });
      expect(received(sink, owner.email)).toEqual([]);

      const [inCzech, ...moreCzech] = received(sink, czech.email);
      expect(moreCzech).toEqual([]);
      expect(inCzech!.from).toBe("noreply@spolu.test");
      expect(inCzech!.subject).toBe("Olga vám připomíná „Zalít květiny <hned>“");
      expect(inCzech!.text).toContain("Dobrý den, Petr,");
      expect(inCzech!.text).toContain("Olga vám připomíná úkol „Zalít květiny <hned>“.");
      expect(inCzech!.text).toContain("Termín: 5. 3. 2026 14:00");
      expect(inCzech!.text).toContain("Olga píše:\n\n> Nezapomeň, prosím!");
      expect(inCzech!.text).toContain(`Otevřít úkol: ${APP_URL}/cs/tasks/${task.id}`);
      expect(inCzech!.html).toContain('<html lang="cs" dir="ltr">');
      expect(inCzech!.html).toContain("Zalít květiny &lt;hned&gt;");
      expect(inCzech!.html).not.toContain("<hned>");

      const [inHebrew, ...moreHebrew] = received(sink, hebrew.email);
      expect(moreHebrew).toEqual([]);
      expect(inHebrew!.subject).toBe("תזכורת מאת Olga: „Zalít květiny <hned>”");
      expect(inHebrew!.text).toContain("15:00");
      expect(inHebrew!.text).toContain("> Nezapomeň, prosím!");
      expect(inHebrew!.html).toContain('<html lang="he" dir="rtl">');
      expect(inHebrew!.html).toContain(`${APP_URL}/he/tasks/${task.id}`);

      const log = await emailLog(admin, "?limit=2");
      expect(log.items.map((item) => [item.userId, item.kind, item.status]).sort()).toEqual(
        [
          [czech.user.id, "personal_reminder", "sent"],
          [hebrew.user.id, "personal_reminder", "sent"],
        ].sort(),
      );
      expect(log.items.map((item) => item.id).sort()).toEqual(result.results.map((item) => item.emailLogId).sort());
    });

    test("one per task per sender in 10 minutes: 429 with Retry-After, nothing sent; others may; again after", async () => {
      const { owner, czech, hebrew, task } = await taskWithThreeAssignees("Pay the rent");
      // Starts 11 minutes back, so that everything this test logs stays in the past for the tests after it.
      advanceClock(-11 * 60_000);
      await reminded(owner, { taskId: task.id });
      expect(received(sink, czech.email)).toHaveLength(1);

      const again = await remind(owner, { taskId: task.id, message: "Really" });
      expectProblem(again, 429, "rate_limited");
      expect(Number(again.headers.get("retry-after"))).toBeGreaterThan(590);
      expect(Number(again.headers.get("retry-after"))).toBeLessThanOrEqual(600);
      expect(received(sink, czech.email)).toHaveLength(1);

      // Another sender is counted on their own: the Czech assignee reminds the owner and the Hebrew speaker.
      const fromCzech = await reminded(czech, { taskId: task.id });
      expect(fromCzech.results.map((item) => item.userId)).toEqual([owner.user.id, hebrew.user.id]);
      expect(received(sink, owner.email).map((message) => message.subject)).toEqual(["Petr reminds you of “Pay the rent”"]);

      advanceClock(9 * 60_000);
      const later = await remind(owner, { taskId: task.id });
      expectProblem(later, 429, "rate_limited");
      expect(Number(later.headers.get("retry-after"))).toBeLessThanOrEqual(60);
      advanceClock(61_000); // 10 minutes and 1 second after the first
      await reminded(owner, { taskId: task.id });
      expect(received(sink, czech.email)).toHaveLength(2);
    });

    test("404 for a task the caller cannot see, or that does not exist; nothing sent", async () => {
      const { task } = await taskWithThreeAssignees("Secret plans");
      const stranger = await registerUser(server);
      const before = sentSoFar(sink);
      const hidden = expectProblem(await remind(stranger, { taskId: task.id }), 404, "not_found");
      expect(JSON.stringify(hidden)).not.toContain("Secret plans");
      expectProblem(await remind(stranger, { taskId: MISSING_ID }), 404, "not_found");
      expect(sentSoFar(sink)).toBe(before);
    });

    test("409 when nobody is assigned, or only the caller", async () => {
      const owner = await registerUser(server);
      const unassigned = await createTask(server, owner.token, { title: "Nobody's" });
      const nobody = expectProblem(await remind(owner, { taskId: unassigned.id }), 409, "conflict");
      expect(nobody.detail).toMatch(/Nobody is assigned/);
      const mine = await createTask(server, owner.token, { title: "Mine", assigneeIds: [owner.user.id] });
      const onlyMe = expectProblem(await remind(owner, { taskId: mine.id }), 409, "conflict");
      expect(onlyMe.detail).toMatch(/only assignee/);
    });

    test("400 naming the field", async () => {
      const owner = await registerUser(server);
      const cases: [unknown, string[]][] = [
        [{}, ["/taskId"]],
        [{ taskId: "nope" }, ["/taskId"]],
        [{ taskId: MISSING_ID, message: "x".repeat(1001) }, ["/message"]],
        [{ taskId: MISSING_ID, message: 5 }, ["/message"]],
        [{ taskId: MISSING_ID, to: "someone@example.com" }, ["/to"]],
      ];
      for (const [json, pointers] of cases) {
        const problem = expectProblem(await remind(owner, json), 400, "validation_failed");
        expect(
          problem.errors?.map((error) => error.pointer),
          JSON.stringify(json),
        ).toEqual(pointers);
      }
    });

    test("an assignee whose mail server refuses is reported failed with the reason; the others still get it", async () => {
      const owner = await registerUser(server, { name: "Olga" });
      const good = await registerUser(server);
      const bouncing = await registerUser(server, { email: `bounce-${randomUUID()}@example.com`, name: "Bo" });
      const task = await createTask(server, owner.token, { title: "Sign the form" });
      await assign(owner, task.id, bouncing);
      await assign(owner, task.id, good);
      const result = await reminded(owner, { taskId: task.id });
      expect(result.results).toEqual([
        {
          userId: bouncing.user.id,
          name: "Bo",
          status: "failed",
          reason: expect.stringContaining("550 5.1.1 No such user here"),
          emailLogId: expect.any(String),
        },
        { userId: good.user.id, name: "Test User", status: "sent", reason: null, emailLogId: expect.any(String) },
      ]);
      expect(received(sink, good.email)).toHaveLength(1);
      const failed = await emailLog(admin, "?status=failed&limit=1");
      expect(failed.items[0]).toMatchObject({ id: result.results[0]!.emailLogId, to: bouncing.email, status: "failed" });
    });
  });

  describe("comment notifications (POST /tasks/{id}/comments)", () => {
    test("arrive by email, in the person's language with a link to the task, for those whose preferences choose email", async () => {
      const { owner, czech, hebrew, task } = await taskWithThreeAssignees("Paint the fence");
      const prefs = await server.request(`/api/v1/notification-prefs/${task.id}`, {
        method: "PUT",
        token: czech.token,
        json: { channels: ["in_app", "email"] },
      });
      expect(prefs.status, JSON.stringify(prefs.body)).toBe(200);

      // Olga mentions Petr (who chose email) and Noa (who kept the defaults: in the app and push).
      const comment = await server.request(`/api/v1/tasks/${task.id}/comments`, {
        token: owner.token,
        json: { body: "Which **colour**, @Petr? And @Noa?", mentions: [czech.user.id, hebrew.user.id] },
      });
      expect(comment.status, JSON.stringify(comment.body)).toBe(201);

      const [mail, ...more] = received(sink, czech.email);
      expect(more).toEqual([]);
      expect(mail).toMatchObject({ from: "noreply@spolu.test", subject: "Olga vás zmínil(a): Paint the fence" });
      expect(mail!.text).toContain("Which **colour**, @Petr? And @Noa?");
      expect(mail!.text).toContain(`${APP_URL}/cs/tasks/${task.id}`);
      expect(mail!.html).toContain(`href="${APP_URL}/cs/tasks/${task.id}"`);
      expect(received(sink, hebrew.email)).toEqual([]);

      // An edit that mentions nobody new sends nothing more; Petr's reply tells Olga in the app only (her defaults).
      const reply = await server.request(`/api/v1/tasks/${task.id}/comments`, { token: czech.token, json: { body: "Blue" } });
      expect(reply.status).toBe(201);
      expect(received(sink, owner.email)).toEqual([]);
      expect(received(sink, czech.email)).toHaveLength(1);
    });
  });

  describe("GET /email/log", () => {
    test("admins page through it newest first; others get 403; a bad cursor or limit is a 400", async () => {
      for (const subject of ["Log 1", "Log 2", "Log 3"]) await sent(admin, { to: "log@example.com", subject, text: subject });
      const first = await emailLog(admin, "?limit=2");
      expect(first.items.map((item) => item.subject)).toEqual(["Log 3", "Log 2"]);
      expect(first.nextCursor).not.toBeNull();
      const second = await emailLog(admin, `?limit=2&cursor=${encodeURIComponent(first.nextCursor!)}`);
      expect(second.items[0]!.subject).toBe("Log 1");
      expect(second.items.map((item) => item.id)).not.toContain(first.items[1]!.id);

      const all = await emailLog(admin, "?limit=200");
      expect(all.nextCursor).toBeNull();
      const times = all.items.map((item) => item.createdAt);
      expect(times).toEqual([...times].sort().reverse());

      const user = await registerUser(server);
      expectProblem(await server.request("/email/log", { token: user.token }), 403, "forbidden");
      const cursor = expectProblem(
        await server.request("/email/log?cursor=garbage", { token: admin.token }),
        400,
        "validation_failed",
      );
      expect(cursor.errors?.map((error) => error.pointer)).toEqual(["/cursor"]);
      const limit = expectProblem(await server.request("/email/log?limit=0", { token: admin.token }), 400, "validation_failed");
      expect(limit.errors?.map((error) => error.pointer)).toEqual(["/limit"]);
    });
  });

  describe("sendEmailToUser", () => {
    test("renders a template in the user's language and delivers it; a refusal is `failed`, never thrown", async () => {
      const user = await registerUser(server, { name: "Ivan" });
      await setProfile(user, { locale: "ru", timeZone: "Europe/Moscow" });
      const result = await sendEmailToUser(user.user.id, {
        template: "daily_summary",
        params: { date: "2026-03-05", dueToday: [{ id: MISSING_ID, title: "Купить хлеб", dueAt: DUE_AT }], overdue: [] },
      });
      expect(result).toEqual({ status: "sent" });
      const [message] = received(sink, user.email);
      expect(message!.subject).toBe("Ваши задачи на 5 марта 2026 г.");
      expect(message!.text).toContain("- Купить хлеб – 16:00");

      const bouncing = await registerUser(server, { email: `bounce-${randomUUID()}@example.com` });
      const failed = await sendEmailToUser(bouncing.user.id, {
        template: "notification",
        params: { title: "Hi", body: "There" },
      });
      expect(failed).toMatchObject({ status: "failed", reason: expect.stringContaining("550") });
      expect(await sendEmailToUser(MISSING_ID, { template: "notification", params: { title: "Hi", body: "There" } })).toEqual({
        status: "skipped",
        reason: "no email address",
      });
    });
  });
});

describe("with the Resend transport", () => {
  const API_KEY = "re_test_5f0c2b";
  let stub: ResendStub;
  let admin: User;

  beforeAll(async () => {
    stub = await startResendStub({ apiKey: API_KEY, refuse: (to) => to.endsWith("@unverified.test") });
    server = await startTestServer({
      EMAIL_TRANSPORT: "resend",
      RESEND_API_KEY: API_KEY,
      RESEND_BASE_URL: stub.url,
      EMAIL_FROM: FROM,
    });
    admin = await registerAdmin();
    // Its verification link goes out after the sign-up's answer: wait for it, so that the tests count from after it.
    await vi.waitFor(() => expect(stub.requests.length).toBeGreaterThan(0), { timeout: 10_000, interval: 20 });
  });
  afterAll(async () => {
    await server?.close();
    await stub?.close();
  });

  test("POST /email/send – posts the email to Resend with the API key, and logs Resend's id", async () => {
    const [requestsBefore, sentBefore] = [stub.requests.length, stub.sent.length];
    const entry = await sent(admin, {
      to: "someone@example.com",
      subject: "Via Resend",
      text: "Plain body",
      html: "<p>HTML body</p>",
    });
    expect(entry).toMatchObject({ status: "sent", transport: "resend", kind: "admin", error: null });

    const [request, ...more] = stub.requests.slice(requestsBefore);
    expect(more).toEqual([]);
    expect(request).toMatchObject({ method: "POST", path: "/emails" });
    expect(request!.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(request!.headers["content-type"]).toMatch(/^application\/json/);
    expect(request!.headers["idempotency-key"]).toBe(entry.id);
    expect(request!.body).toMatchObject({
      from: FROM,
      to: "someone@example.com",
      subject: "Via Resend",
      text: "Plain body",
      html: "<p>HTML body</p>",
    });
    expect(stub.sent.slice(sentBefore).map((email) => email.id)).toEqual([entry.providerMessageId]);
  });

  test("POST /email/reminder – the localized email goes to Resend with its text and HTML bodies", async () => {
    const owner = await registerUser(server, { name: "Olga" });
    const hebrew = await registerUser(server, { name: "Noa" });
    await setProfile(hebrew, { locale: "he", timeZone: "Asia/Jerusalem" });
    const task = await createTask(server, owner.token, { title: "Water the plants", dueAt: DUE_AT });
    await assign(owner, task.id, hebrew);
    const result = await reminded(owner, { taskId: task.id });
    expect(result.results).toEqual([
      { userId: hebrew.user.id, name: "Noa", status: "sent", reason: null, emailLogId: expect.any(String) },
    ]);

    // The last request to the Hebrew speaker that is not a verification link (those go out after sign-up answers).
    const body = stub.requests
      .map((request) => request.body)
      .filter((body) => body?.to === hebrew.email && !String(body.text).includes("/verify-email#token="))
      .at(-1)!;
    expect(body).toMatchObject({ from: FROM, to: hebrew.email, subject: "תזכורת מאת Olga: „Water the plants”" });
    expect(body.text).toContain("15:00");
    expect(body.html).toContain('<html lang="he" dir="rtl">');
    // No APP_URL here: no link.
    expect(body.html).not.toContain("<a ");
  });

  test("POST /email/send – an email Resend refuses is a failed log entry with Resend's answer, not a 500", async () => {
    const response = await sendEmail(admin, { to: "someone@unverified.test", subject: "Refused", text: "Text" });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    const entry = expectShape(emailLogEntryOutput, response.body);
    expect(entry).toMatchObject({ status: "failed", transport: "resend", providerMessageId: null });
    expect(entry.error).toBe(
      "Resend refused the email (403 validation_error): You can only send testing emails to your own email address. " +
        "To send emails to other recipients, please verify a domain.",
    );
  });
});

describe("with no EMAIL_TRANSPORT (the log transport)", () => {
  let sink: SmtpSink;
  let admin: User;
  let output: string[];

  beforeAll(async () => {
    sink = await startSmtpSink();
    // An SMTP server configured but not chosen: the default transport still only logs.
    server = await startTestServer({ SMTP_URL: sink.url, LOG_LEVEL: "info", ACCESS_LOG: "false" });
    admin = await registerAdmin();
  });
  afterAll(async () => {
    vi.restoreAllMocks();
    await server?.close();
    await sink?.close();
  });

  test("POST /email/send – logged with to and subject at info level, counted as sent, nothing sent", async () => {
    output = [];
    vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => {
      output.push(String(chunk));
      return true;
    });
    const entry = await sent(admin, { to: "someone@example.com", subject: "Only in the log", text: "Secret body text" });
    vi.restoreAllMocks();

    expect(entry).toMatchObject({ status: "sent", transport: "log", providerMessageId: null, error: null });
    const lines = output.flatMap((chunk) => chunk.split("\n")).filter((line) => line.includes("EMAIL_TRANSPORT=log"));
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({
      level: "info",
      emailId: entry.id,
      to: "someone@example.com",
      subject: "Only in the log",
      kind: "admin",
    });
    expect(output.join("")).not.toContain("Secret body text");
    expect(sink.messages).toEqual([]);
  });
});
