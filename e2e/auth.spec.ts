import { randomUUID } from "node:crypto";
import { expect, test } from "./fixtures";
import { HomePage } from "./pages/home-page";
import { SignInPage } from "./pages/sign-in-page";
import { collectErrors } from "./page-errors";

/*
 * Signing up, out and in through the pages, as a visitor does it: the registration form opens the user's tasks
 * with their name in the header; the header signs out to the home page; the password signs in again (a wrong one
 * is refused, visibly); a signed-in visitor of the sign-in page goes on to their tasks. The tasks page belongs to
 * another part of the web application: these tests only look at where the browser goes and at the header.
 */

test("sign up, sign out from the header, sign in again with the password", async ({ page }) => {
  const errors = collectErrors(page);
  const home = new HomePage(page);
  const signIn = new SignInPage(page);
  const account = { name: "Alžběta Nováková", email: `auth-${randomUUID()}@example.com`, password: `pw-${randomUUID()}` };

  // Signed out, the header offers both ways in.
  await home.goto("/en");
  await expect(home.header.nav).toHaveCount(0);
  await home.header.root.getByRole("link", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/en\/sign-in\?mode=register$/);
  await expect(signIn.heading).toHaveText("Create your Spolu account");

  await signIn.card.getByLabel("Your name", { exact: true }).fill(account.name);
  await signIn.card.getByLabel("Email", { exact: true }).fill(account.email);
  await signIn.card.getByLabel("Password", { exact: true }).fill(account.password);
  await signIn.card.getByRole("button", { name: "Create account", exact: true }).click();

  // Registered and signed in: the tasks, with the name in the header and the sections to go to.
  await expect(page).toHaveURL(/\/en\/tasks$/);
  await expect(home.header.account(account.name)).toBeVisible();
  await expect(home.header.link("Tasks")).toHaveAttribute("aria-current", "page");
  await expect(home.header.link("Board")).toHaveAttribute("href", "/en/board");
  await expect(home.header.link("Requests")).toHaveAttribute("href", "/en/requests");
  await expect(home.header.link("Settings")).toHaveAttribute("href", "/en/settings");
  await expect(home.header.link("Admin")).toHaveCount(0);
  await expect(home.header.root.getByRole("link", { name: "Sign in" })).toHaveCount(0);

  // Already signed in, the sign-in page sends the visitor on to their tasks.
  await signIn.goto();
  await expect(page).toHaveURL(/\/en\/tasks$/);

  // The header signs out to the home page, signed out.
  await home.header.account(account.name).click();
  await expect(home.header.account(account.name)).toHaveAttribute("aria-expanded", "true");
  await expect(home.header.root).toContainText(account.email);
  await home.header.root.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/en$/);
  await expect(home.header.root.getByRole("link", { name: "Sign in" })).toBeVisible();
  await expect(home.header.account(account.name)).toHaveCount(0);
  expect((await page.request.get("/api/v1/auth/me")).status()).toBe(401);

  // A wrong password is refused, and says so; the right one opens the tasks again.
  await home.header.root.getByRole("link", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/en\/sign-in$/);
  await signIn.signInWithPassword(account.email, `wrong-${randomUUID()}`);
  await expect(signIn.alert).toHaveText("Wrong email or password.");
  await expect(page).toHaveURL(/\/en\/sign-in$/);
  await signIn.signInWithPassword(account.email, account.password);
  await expect(page).toHaveURL(/\/en\/tasks$/);
  await expect(home.header.account(account.name)).toBeVisible();

  expect(errors).toEqual([]);
});

test("signing in opens the tasks in the profile's language, and / follows it", async ({ page, request }) => {
  const account = { name: "Иван", email: `auth-ru-${randomUUID()}@example.com`, password: `pw-${randomUUID()}` };
  // Registered through the API in its own request context: the browser knows nothing of it yet.
  expect((await request.post("/api/v1/auth/register", { data: { ...account, locale: "ru" } })).status()).toBe(201);

  const signIn = new SignInPage(page);
  await signIn.goto("en");
  await signIn.signInWithPassword(account.email, account.password);
  await expect(page).toHaveURL(/\/ru\/tasks$/);
  await expect(page.locator("html")).toHaveAttribute("lang", "ru");

  await page.goto("/");
  await expect(page).toHaveURL(/\/ru$/);
  await expect(page.locator(".hero .actions").getByRole("link", { name: "Открыть мои задачи" })).toHaveAttribute(
    "href",
    "/ru/tasks",
  );
});

test("?next= still wins over the tasks after signing in", async ({ page, request }) => {
  const account = { email: `auth-next-${randomUUID()}@example.com`, password: `pw-${randomUUID()}` };
  expect((await request.post("/api/v1/auth/register", { data: { ...account, locale: "cs" } })).status()).toBe(201);
  const signIn = new SignInPage(page);
  await signIn.goto("en", `?next=${encodeURIComponent("/en/settings")}`);
  await signIn.signInWithPassword(account.email, account.password);
  await expect(page).toHaveURL(/\/en\/settings$/);
});
