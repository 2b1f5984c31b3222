import { randomUUID } from "node:crypto";
import { expect, test } from "./fixtures";
import { expectAccessible } from "./axe";
import { AdminPage, signInAsAdmin } from "./pages/admin-page";
import { SignInPage } from "./pages/sign-in-page";
import { SiteHeader } from "./pages/site-header";
import { collectErrors } from "./page-errors";

/*
 * /{locale}/admin: a normal user gets the ordinary 404 page. The administrator (ADMIN_EMAILS) finds that user by
 * searching, disables them (their open browser is signed out on its next page, their API token answers 401 and
 * the password is refused), enables them again (they can sign in); the error statistics and the recent errors show
 * an error a client reported.
 */

test("admin dashboard: 404 for others; find, disable and enable a user; error statistics", async ({ page, browser }) => {
  const errors = collectErrors(page);
  const admin = new AdminPage(page);

  // Someone else, signed in in their own browser.
  const theirs = await browser.newContext();
  const them = await theirs.newPage();
  const marker = randomUUID().slice(0, 8);
  const person = { name: `Pavla ${marker}`, email: `pavla-${marker}@example.com`, password: `pw-${randomUUID()}` };
  const registered = await them.request.post("/api/v1/auth/register", {
    data: { ...person, locale: "en", timeZone: "Europe/Prague" },
  });
  expect(registered.status()).toBe(201);
  const token = ((await registered.json()) as { token: string }).token;

  // To them the dashboard does not exist.
  const notFound = await them.goto("/en/admin");
  expect(notFound?.status()).toBe(404);
  await expect(them.getByRole("heading", { level: 1 })).toHaveText("Page not found");
  await expect(them.getByText("Administration")).toHaveCount(0);

  // A client error, for the statistics.
  const message = `Board exploded ${marker}`;
  expect((await page.request.post("/api/v1/errors/report", { data: { message, url: "/en/board" } })).status()).toBe(202);

  await signInAsAdmin(page.request);
  await admin.goto();
  await expect(admin.heading).toHaveText("Administration");
  await expect(admin.usersTable.getByRole("columnheader", { name: "Last seen" })).toBeVisible();

  // The search finds exactly them.
  await admin.search(marker);
  await expect(page).toHaveURL(new RegExp(`/en/admin\\?q=${marker}$`));
  await expect(admin.users.getByText(`1 user matches “${marker}”.`)).toBeVisible();
  await expect(admin.usersTable.getByRole("row")).toHaveCount(2);
  const row = admin.row(person.email);
  await expect(row.getByRole("rowheader")).toHaveText(person.name);
  await expect(row.getByRole("cell", { name: "Active", exact: true })).toBeVisible();

  // Disabling asks first; cancelling changes nothing.
  await row.getByRole("button", { name: `Disable ${person.name}` }).click();
  await expect(row.getByRole("group")).toContainText(`Disable ${person.name}?`);
  await row.getByRole("button", { name: "Cancel" }).click();
  await expect(row.getByRole("button", { name: `Disable ${person.name}` })).toBeFocused();
  expect((await them.request.get("/api/v1/auth/me")).status()).toBe(200);

  await admin.setAccess(person.email, "Disable");
  await expect(row.getByRole("status")).toHaveText(`${person.name} was disabled and signed out everywhere.`);
  await expect(row.getByText(/^Disabled since /)).toBeVisible();
  await expect(row.getByRole("button", { name: `Enable ${person.name}` })).toBeFocused();

  // Their session has ended: the next page sends them to sign in, the token is refused, so is the password.
  await them.goto("/en/settings");
  await expect(them).toHaveURL(/\/en\/sign-in\?next=%2Fen%2Fsettings$/);
  const api = them.request;
  expect((await api.get("/api/v1/auth/me", { headers: { Authorization: `Bearer ${token}` } })).status()).toBe(401);
  const refused = await api.post("/api/v1/auth/login", { data: { email: person.email, password: person.password } });
  expect(refused.status()).toBe(403);
  expect(((await refused.json()) as { code: string }).code).toBe("account_disabled");
  const signIn = new SignInPage(them);
  await signIn.signInWithPassword(person.email, person.password);
  await expect(signIn.alert.filter({ hasText: "An administrator has disabled this account." })).toBeVisible();

  // Enabled again: they can sign in.
  await admin.setAccess(person.email, "Enable");
  await expect(row.getByRole("status")).toHaveText(`${person.name} can sign in again.`);
  await expect(row.getByRole("cell", { name: "Active", exact: true })).toBeVisible();
  expect((await api.post("/api/v1/auth/login", { data: { email: person.email, password: person.password } })).status()).toBe(200);
  await theirs.close();

  // The error statistics and the recent errors show the reported error.
  await admin.goto();
  await expect(admin.errorStats.getByRole("link", { name: "Last 7 days" })).toHaveAttribute("aria-current", "page");
  await expect(admin.errorStats.getByText(/^\d+ errors? in this period\.$/)).toBeVisible();
  await expect(admin.errorStats.getByRole("list", { name: "Errors per day (UTC)" }).getByRole("listitem")).toHaveCount(8);
  await admin.errorStats.getByRole("link", { name: "Last 30 days" }).click();
  await expect(page).toHaveURL(/\/en\/admin\?days=30#errors-title$/);
  await expect(admin.errorStats.getByRole("list", { name: "Errors per day (UTC)" }).getByRole("listitem")).toHaveCount(31);
  await admin.recentErrors.getByRole("link", { name: "Browsers and apps" }).click();
  const reported = admin.recentErrors.getByRole("row").filter({ hasText: message });
  await expect(reported).toContainText("Client");
  await expect(reported).toContainText("/en/board");

  await expectAccessible(page);
  expect(errors).toEqual([]);
});

test("admin dashboard: switching the activity module off hides its menu entry and page for everyone, on again brings them back", async ({
  page,
  browser,
}) => {
  // The switch holds for the whole server: it is off only for the few seconds between the two clicks below.
  const errors = collectErrors(page);
  const admin = new AdminPage(page);
  await signInAsAdmin(page.request);

  // Someone else, signed in, sees Activity in the menu.
  const theirs = await browser.newContext();
  const them = await theirs.newPage();
  const person = { email: `modules-${randomUUID()}@example.com`, password: `pw-${randomUUID()}`, name: "Milan" };
  expect(
    (await them.request.post("/api/v1/auth/register", { data: { ...person, locale: "en", timeZone: "Europe/Prague" } })).status(),
  ).toBe(201);
  const header = new SiteHeader(them);
  await them.goto("/en/tasks");
  await expect(header.link("Activity")).toHaveAttribute("href", "/en/activity");

  await admin.goto();
  const activity = admin.moduleSwitch("Activity monitor");
  await expect(activity).toBeChecked();
  await expect(admin.moduleRow("Activity monitor")).toContainText("The configuration");
  await expect(admin.jobs.getByRole("rowheader", { name: "reminders" })).toBeVisible();
  await expectAccessible(page);

  try {
    await activity.click();
    await expect(admin.moduleRow("Activity monitor").getByRole("status")).toHaveText("Activity monitor is off.");
    await expect(activity).not.toBeChecked();
    await expect(admin.moduleRow("Activity monitor")).toContainText("Ada Admin");

    // For them: no menu entry, the page is the 404 page, the API answers module_disabled.
    await them.goto("/en/tasks");
    await expect(header.link("Tasks")).toBeVisible();
    await expect(header.link("Activity")).toHaveCount(0);
    const gone = await them.goto("/en/activity");
    expect(gone?.status()).toBe(404);
    await expect(them.getByRole("heading", { level: 1 })).toHaveText("Page not found");
    const api = await them.request.get("/api/v1/activity/summary");
    expect(api.status()).toBe(404);
    expect(((await api.json()) as { code: string }).code).toBe("module_disabled");
    await expectAccessible(page);
  } finally {
    // Back to the configuration, whatever happened above.
    await admin.goto();
    const reset = admin.moduleRow("Activity monitor").getByRole("button", { name: /^Reset to configuration/ });
    if (await reset.isVisible()) await reset.click();
    await expect(admin.moduleRow("Activity monitor")).toContainText("The configuration");
  }
  await expect(activity).toBeChecked();
  await them.goto("/en/activity");
  await expect(them.getByRole("heading", { level: 1 })).not.toHaveText("Page not found");
  await expect(header.link("Activity")).toHaveAttribute("aria-current", "page");
  await theirs.close();
  expect(errors).toEqual([]);
});

test("admin dashboard: the work queue, in English and in Hebrew (right to left)", async ({ page }) => {
  const errors = collectErrors(page);
  const admin = new AdminPage(page);
  await signInAsAdmin(page.request);

  await admin.goto();
  await expect(admin.queue.getByRole("heading", { name: "Work queue" })).toBeVisible();
  // Every kind of queued work has its row, with its counts, whether or not anything was queued yet.
  for (const kind of ["webhook.delivery", "connector.run", "deploy.run", "media.transcription", "reminder.send"]) {
    await expect(admin.queue.getByRole("rowheader", { name: kind })).toBeVisible();
  }
  await expect(admin.queue.getByRole("columnheader", { name: "Dead" })).toBeVisible();
  await expectAccessible(page);

  await admin.goto("", "he");
  await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
  await expect(admin.queue.getByRole("heading", { name: "תור העבודה" })).toBeVisible();
  await expect(admin.queue.getByRole("rowheader", { name: "webhook.delivery" })).toBeVisible();
  await expect(admin.queue.getByRole("columnheader", { name: "מתים" })).toBeVisible();
  await expectAccessible(page);
  expect(errors).toEqual([]);
});
