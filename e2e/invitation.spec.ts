import { randomUUID } from "node:crypto";
import { expect, test, type APIRequestContext, type Page } from "./fixtures";
import { InvitePage } from "./pages/invite-page";

/*
 * The invitation landing page, arranged through the API: an inviter registers, creates a task and invites
 * (POST /invitations); the page is then visited as the invitee would, without signing in.
 */

// A browser in UTC unless a test says otherwise, so that what the page shows does not depend on the machine's zone.
test.use({ timezoneId: "UTC" });

const ENGLISH = { name: "Your name", email: "Email", password: "Password", submit: "Create account and accept" };

interface Account {
  token: string;
  id: string;
  email: string;
  password: string;
}

async function registerAccount(request: APIRequestContext, name: string): Promise<Account> {
  const email = `e2e-${randomUUID()}@example.com`;
  const password = `pw-${randomUUID()}`;
  const response = await request.post("/api/v1/auth/register", { data: { email, password, name } });
  expect(response.status()).toBe(201);
  const body = await response.json();
  return { token: body.token, id: body.user.id, email, password };
}

const bearer = (account: Account) => ({ Authorization: `Bearer ${account.token}` });

/** An inviter with a task and a fresh invitation to it. */
async function arrange(request: APIRequestContext, title = "Natřít plot u chaty") {
  const inviter = await registerAccount(request, "Jana Nováková");
  const task = await request.post("/api/v1/tasks", { headers: bearer(inviter), data: { title } });
  expect(task.status()).toBe(201);
  const taskId = (await task.json()).id as string;
  const created = await request.post("/invitations", { headers: bearer(inviter), data: { taskId, name: "Petr" } });
  expect(created.status()).toBe(201);
  const invitation = await created.json();
  return {
    inviter,
    taskId,
    title,
    token: invitation.token as string,
    invitationId: invitation.invitation.id as string,
    expiresAt: invitation.invitation.expiresAt as string,
  };
}

/** Errors the page reports in its console or throws. */
function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  return errors;
}

async function assigneesOf(request: APIRequestContext, owner: Account, taskId: string): Promise<string[]> {
  const response = await request.get(`/api/v1/tasks/${taskId}`, { headers: bearer(owner) });
  expect(response.status()).toBe(200);
  return (await response.json()).assigneeIds;
}

test("in Czech (?lang=cs) the page shows the inviter and the task with Czech text, and is kept out of indexes", async ({
  page,
  request,
}) => {
  const { token, title, expiresAt: expiresAtIso } = await arrange(request);
  const errors = collectErrors(page);
  const invite = new InvitePage(page);
  const response = await invite.goto(token, "cs");
  expect(response?.status()).toBe(200);
  expect(await invite.direction()).toEqual({ lang: "cs", dir: "ltr" });
  await expect(invite.heading).toHaveText("Jana Nováková vás zve k úkolu");
  await expect(invite.target).toHaveText(title);
  await expect(page.getByRole("heading", { name: "Jste ve Spolu noví? Vytvořte si účet" })).toBeVisible();
  await expect(invite.registerForm.getByLabel("Vaše jméno")).toHaveValue("Petr");
  const expiresAt = new Date(expiresAtIso);
  await expect(page.locator(".invite-expiry time")).toHaveAttribute("datetime", expiresAtIso);
  await expect(page.locator(".invite-expiry")).toHaveText(
    new RegExp(`^Pozvánka platí do ${expiresAt.getUTCDate()}\\. \\S+ ${expiresAt.getUTCFullYear()} .*UTC\\.$`),
  );
  await expect(page).toHaveTitle("Pozvánka do Spolu");
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", /noindex/);
  await expect(page.locator('meta[name="referrer"]')).toHaveAttribute("content", "no-referrer");
  expect(errors).toEqual([]);
});

test.describe("with a Czech browser", () => {
  test.use({ locale: "cs-CZ" });

  test("Accept-Language picks Czech without ?lang", async ({ page, request }) => {
    const { token } = await arrange(request);
    const invite = new InvitePage(page);
    await invite.goto(token);
    await expect(page.locator("html")).toHaveAttribute("lang", "cs");
    await expect(invite.heading).toHaveText("Jana Nováková vás zve k úkolu");
  });

  test("an unknown token answers 404 with a Czech explanation", async ({ page }) => {
    const invite = new InvitePage(page);
    const response = await invite.goto("no-such-token-0123456789abcdefghijklmnopq");
    expect(response?.status()).toBe(404);
    await expect(invite.heading).toHaveText("Tento odkaz na pozvánku není platný");
    await expect(page.locator("html")).toHaveAttribute("lang", "cs");
    await expect(page.getByRole("link", { name: "Přejít do Spolu" })).toHaveAttribute("href", "/cs");
  });
});

test("in Hebrew the page runs right to left, in Hebrew", async ({ page, request }) => {
  const { token, title } = await arrange(request);
  const invite = new InvitePage(page);
  await invite.goto(token, "he");
  expect(await invite.direction()).toEqual({ lang: "he", dir: "rtl" });
  await expect(invite.heading).toHaveText("Jana Nováková הזמין/ה אותך למשימה");
  await expect(invite.target).toHaveText(title);
  await expect(page.getByRole("button", { name: "יצירת חשבון וקבלת ההזמנה" })).toBeVisible();
  // The language links keep the page and change only ?lang.
  await page.getByRole("link", { name: "English", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/invite/${token}\\?lang=en$`));
  expect(await invite.direction()).toEqual({ lang: "en", dir: "ltr" });
});

test("register and accept: the new account is assigned to the task and signed in", async ({ page, request }) => {
  const { inviter, taskId, title, token } = await arrange(request, "Paint the fence");
  const errors = collectErrors(page);
  const invite = new InvitePage(page);
  await invite.goto(token, "en");
  const newcomer = { name: "Petr Novák", email: `petr-${randomUUID()}@example.com`, password: `pw-${randomUUID()}` };

  // A bad password first: the error is shown next to the field and the field is marked invalid.
  await invite.register(ENGLISH, { ...newcomer, password: "short" });
  const password = invite.registerForm.getByLabel(ENGLISH.password);
  await expect(password).toHaveAttribute("aria-invalid", "true");
  await expect(invite.registerForm.getByRole("alert")).toHaveText("Please correct the marked fields.");
  await expect(invite.registerForm.getByText(/^Choose a password of at least 8 characters/)).toBeVisible();

  await invite.register(ENGLISH, newcomer);
  await expect(page.getByRole("heading", { name: "You're in!" })).toBeVisible();
  await expect(invite.success).toContainText(`“${title}” is now on your task list.`);
  await expect(page.getByRole("link", { name: "Open Spolu" })).toHaveAttribute("href", "/en");
  const cookies = await page.context().cookies();
  expect(cookies.find((cookie) => cookie.name === "spolu_session")?.httpOnly).toBe(true);

  // Through the API: the account exists, and it is the task's assignee.
  const login = await request.post("/api/v1/auth/login", { data: { email: newcomer.email, password: newcomer.password } });
  expect(login.status()).toBe(200);
  const user = (await login.json()).user;
  expect(user.name).toBe("Petr Novák");
  expect(await assigneesOf(request, inviter, taskId)).toEqual([user.id]);
  // The failed attempt was a 400 the page handled: the browser logs a failed request, nothing else.
  expect(errors.filter((error) => !error.includes("400 (Bad Request)"))).toEqual([]);

  // The link worked once: visiting it again explains that.
  await invite.goto(token, "en");
  await expect(invite.heading).toHaveText("This invitation has already been used");
  await expect(invite.problem).toContainText("ask Jana Nováková for a new invitation");
});

test.describe("with a browser in New York", () => {
  test.use({ timezoneId: "America/New_York" });

  test("the expiry is shown in the browser's zone, and an account made on the page takes that zone", async ({
    page,
    request,
  }) => {
    const { token, expiresAt: expiresAtIso } = await arrange(request, "Rake the leaves");
    const errors = collectErrors(page);
    const invite = new InvitePage(page);
    await invite.goto(token, "en");
    // What the visitor's own clock says, with the zone's name (EST or EDT), not UTC.
    const zone = (options: Intl.DateTimeFormatOptions) =>
      new Intl.DateTimeFormat("en-US", { timeZone: "America/New_York", ...options }).format(new Date(expiresAtIso));
    const day = zone({ year: "numeric", month: "long", day: "numeric" });
    const abbreviation = zone({ timeZoneName: "short" }).split(" ").pop()!;
    const hour = zone({ hour: "numeric", minute: "2-digit" }).replace(/\s+/g, " ");
    const expiry = page.locator(".invite-expiry");
    await expect(expiry).toContainText(`This invitation is valid until ${day}`);
    await expect(expiry).toContainText(abbreviation);
    expect((await expiry.innerText()).replace(/\s+/g, " ")).toContain(hour);
    await expect(expiry).not.toContainText("UTC");

    const newcomer = { name: "Nora Lee", email: `nora-${randomUUID()}@example.com`, password: `pw-${randomUUID()}` };
    await invite.register(ENGLISH, newcomer);
    await expect(page.getByRole("heading", { name: "You're in!" })).toBeVisible();
    const login = await request.post("/api/v1/auth/login", { data: { email: newcomer.email, password: newcomer.password } });
    expect(login.status()).toBe(200);
    expect((await login.json()).user.timeZone).toBe("America/New_York");
    expect(errors).toEqual([]);
  });
});

test("sign in and accept with an existing account", async ({ page, request }) => {
  const { inviter, taskId, token } = await arrange(request);
  const existing = await registerAccount(request, "Eva");
  const invite = new InvitePage(page);
  await invite.goto(token, "en");
  await invite.signIn(
    { email: "Email", password: "Password", submit: "Sign in and accept" },
    { email: existing.email, password: "wrong password" },
  );
  await expect(invite.signInForm.getByRole("alert")).toHaveText("Wrong email or password.");
  await invite.signIn({ email: "Email", password: "Password", submit: "Sign in and accept" }, existing);
  await expect(page.getByRole("heading", { name: "You're in!" })).toBeVisible();
  expect(await assigneesOf(request, inviter, taskId)).toEqual([existing.id]);
});

test("a withdrawn invitation explains itself instead of offering the forms", async ({ page, request }) => {
  const { inviter, token, invitationId } = await arrange(request);
  expect((await request.delete(`/api/v1/invitations/${invitationId}`, { headers: bearer(inviter) })).status()).toBe(204);
  const invite = new InvitePage(page);
  await invite.goto(token, "ru");
  await expect(invite.heading).toHaveText("Это приглашение отозвано");
  await expect(invite.problem).toContainText("Jana Nováková");
  await expect(invite.registerForm).toHaveCount(0);
});

test("a relative invited to a family workspace by link joins without an account in advance", async ({ page, request }) => {
  const parent = await registerAccount(request, "Dana Dvořáková");
  const family = await request.post("/api/v1/family", { headers: bearer(parent), data: { name: "The Dvořáks" } });
  expect(family.status()).toBe(201);
  const created = await request.post("/api/v1/invitations", {
    headers: bearer(parent),
    data: { familyId: (await family.json()).id, familyRole: "child", name: "Grandpa" },
  });
  expect(created.status()).toBe(201);
  const { token } = await created.json();

  const invite = new InvitePage(page);
  await invite.goto(token, "en");
  await expect(invite.heading).toHaveText("Dana Dvořáková invites you to their family workspace");
  await expect(page.getByText("The Dvořáks")).toBeVisible();
  await expect(page.getByText("Child", { exact: true })).toBeVisible();

  // An address that has an account, with a password that is not its own: refused without saying the address exists.
  const existing = await registerAccount(request, "Somebody");
  await invite.register(ENGLISH, { name: "Grandpa", email: existing.email, password: "not the password at all" });
  await expect(invite.registerForm.getByRole("alert")).toHaveText(/^We could not accept with this email and password/);

  const grandpa = { name: "Grandpa", email: `grandpa-${randomUUID()}@example.com`, password: `pw-${randomUUID()}` };
  await invite.register(ENGLISH, grandpa);
  await expect(page.getByRole("heading", { name: "You're in!" })).toBeVisible();
  await expect(invite.success).toContainText("You are now a member of the family workspace “The Dvořáks”.");
  const members = await (await request.get("/api/v1/family", { headers: bearer(parent) })).json();
  expect(members.members.map((member: { name: string; role: string }) => [member.name, member.role])).toEqual([
    ["Dana Dvořáková", "parent"],
    ["Grandpa", "child"],
  ]);
});
