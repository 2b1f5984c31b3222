import { randomUUID } from "node:crypto";
import { expect, test } from "./fixtures";
import { ODOO_ADMIN, ODOO_DATABASE, startOdooServer, type OdooServer } from "../tests/integration/odoo-server";
import { expectAccessible } from "./axe";
import { collectErrors } from "./page-errors";

// A long flow (several pages, axe runs, a local partner): more than the default 30 s on a busy machine.
test.describe.configure({ timeout: 90_000 });

/*
 * /{locale}/settings/connections against a local Odoo 17 (tests/integration/odoo-server.ts; the e2e server allows
 * private addresses): reached from the settings home; a connection is added (its webhook secret shown once),
 * checked, imports a task (the run and its counts shown, then in the history), and the Hebrew page is accessible too.
 */

let odoo: OdooServer;

test.beforeAll(async () => {
  odoo = await startOdooServer();
});

test.afterAll(async () => {
  await odoo.close();
});

test("connections: add an Odoo connection, check it, import, see the run", async ({ page }) => {
  const errors = collectErrors(page);
  odoo.reset(17);
  odoo.addTask({ name: "Quote for ACME", date_deadline: "2026-09-01 10:00:00", priority: "1" });
  const account = { name: "Otto Odoo", email: `connections-${randomUUID()}@example.com`, password: `pw-${randomUUID()}` };
  expect(
    (
      await page.request.post("/api/v1/auth/register", { data: { ...account, locale: "en", timeZone: "Europe/Prague" } })
    ).status(),
  ).toBe(201);

  await page.goto("/en/settings");
  await page.getByRole("link", { name: /^Connections/ }).click();
  await expect(page).toHaveURL(/\/en\/settings\/connections$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Connections");
  const create = page.locator("section", { has: page.locator("#connection-create-title") });
  const list = page.locator("section", { has: page.locator("#connection-list-title") });
  await expect(list.getByText("You have no connections yet.")).toBeVisible();
  await expectAccessible(page);

  // A missing database is refused next to the field.
  await create.getByLabel("Name").fill("Our Odoo");
  await create.getByLabel("Address").fill(odoo.url);
  await create.getByLabel("Login").fill(ODOO_ADMIN.login);
  await create.getByLabel("API key or password").fill(ODOO_ADMIN.key);
  await create.getByRole("button", { name: "Add connection" }).click();
  await expect(create.getByRole("alert")).toHaveText("Some fields need attention.");
  await expect(create.getByLabel("Database")).toHaveAttribute("aria-invalid", "true");

  await create.getByLabel("Database").fill(ODOO_DATABASE);
  await create.getByLabel("Login").fill(ODOO_ADMIN.login);
  await create.getByLabel("API key or password").fill(ODOO_ADMIN.key);
  await create.getByLabel("API flavour").selectOption("jsonrpc");
  await create.getByRole("button", { name: "Add connection" }).click();
  await expect(create.getByRole("status").first()).toHaveText(/The connection was added/);
  await expect(create.getByLabel("Secret", { exact: true })).toHaveValue(/^whsec_/);
  await create.getByRole("button", { name: "I have saved it" }).click();
  await expect(create.getByLabel("Secret", { exact: true })).toHaveCount(0);

  const card = list.getByRole("listitem").filter({ hasText: "Our Odoo" });
  await expect(card.getByText("Not checked yet")).toBeVisible();
  await card.getByRole("button", { name: "Check" }).click();
  await expect(card.getByRole("status").first()).toHaveText("Working: version 17.0, signed in (jsonrpc).");
  await expect(card.getByText("Working", { exact: true })).toBeVisible();

  await card.getByRole("button", { name: "Import now" }).click();
  await expect(card.getByRole("status").first()).toHaveText("Import: done");
  await expect(card.getByText("1 created, 0 updated, 0 unchanged, 0 skipped, 0 failed")).toBeVisible();
  await expect(card.getByText("Never")).toHaveCount(0);

  await card.getByRole("button", { name: "Show history" }).click();
  const history = card.getByRole("region", { name: "History" });
  await expect(history.getByRole("listitem")).toHaveCount(1);
  await expectAccessible(page);

  const tasks = await page.request.get("/api/v1/tasks?q=ACME");
  expect((await tasks.json()).items.map((task: { title: string }) => task.title)).toEqual(["Quote for ACME"]);

  // Right to left in Hebrew, and accessible there too.
  await page.goto("/he/settings/connections");
  await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("חיבורים");
  await expectAccessible(page);

  // Deleted after a confirmation.
  await page.goto("/en/settings/connections");
  const again = page
    .locator("section", { has: page.locator("#connection-list-title") })
    .getByRole("listitem")
    .filter({ hasText: "Our Odoo" });
  await again.getByRole("button", { name: "Delete" }).click();
  await again.getByRole("button", { name: "Yes, delete" }).click();
  await expect(page.getByText("The connection was deleted.")).toBeVisible();
  expect(errors).toEqual([]);
});
