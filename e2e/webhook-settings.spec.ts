import { randomUUID } from "node:crypto";
import { expect, test } from "./fixtures";
import { expectAccessible } from "./axe";
import { collectErrors } from "./page-errors";

/*
 * /{locale}/settings/webhooks: reached from the settings home; a URL that is no http(s) URL is refused next to the
 * field; a webhook for two chosen events is added and its secret shown once (copied to the clipboard, gone after a
 * reload); it is paused (kept after a reload), resumed, changed, sent a test (its host does not resolve, so the test fails
 * and shows in the deliveries) and deleted after a confirmation.
 */

test("webhook settings: add with a secret shown once, pause, test, delete", async ({ page, context }) => {
  const errors = collectErrors(page);
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const account = { name: "Wanda Webhook", email: `webhooks-${randomUUID()}@example.com`, password: `pw-${randomUUID()}` };
  expect(
    (
      await page.request.post("/api/v1/auth/register", { data: { ...account, locale: "en", timeZone: "Europe/Prague" } })
    ).status(),
  ).toBe(201);

  await page.goto("/en/settings");
  await page.getByRole("link", { name: /^Webhooks/ }).click();
  await expect(page).toHaveURL(/\/en\/settings\/webhooks$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Webhooks");
  const create = page.locator("section", { has: page.locator("#webhook-create-title") });
  const list = page.locator("section", { has: page.locator("#webhook-list-title") });
  await expect(list.getByText("You have no webhooks yet.")).toBeVisible();

  // Not an http(s) URL: refused next to the field.
  const url = create.getByLabel("Endpoint URL", { exact: true });
  await url.fill("ftp://files.example.com/drop");
  await create.getByRole("button", { name: "Add webhook" }).click();
  await expect(
    create.getByRole("alert").filter({ hasText: "Enter an http:// or https:// URL of a public server" }),
  ).toBeVisible();
  await expect(url).toHaveAttribute("aria-invalid", "true");

  // Two chosen events; "only these" with none ticked is refused before anything is sent.
  const endpoint = `https://hooks.spolu-e2e.invalid/${randomUUID()}`;
  await url.fill(endpoint);
  await create.getByLabel("Note (optional)").fill("Zapier test");
  await create.getByLabel("Only the events I choose").check();
  await create.getByRole("button", { name: "Add webhook" }).click();
  await expect(create.getByRole("alert").filter({ hasText: "Choose at least one event, or send all events." })).toBeVisible();
  await create.getByRole("checkbox", { name: /^A task you can see was created/ }).check();
  await create.getByRole("checkbox", { name: /^A task you can see was completed/ }).check();
  await create.getByRole("button", { name: "Add webhook" }).click();

  // The secret, once: copied, then put away.
  await expect(create.getByRole("status").first()).toHaveText("The webhook was added.");
  const secretField = create.getByLabel("Secret", { exact: true });
  await expect(secretField).toHaveValue(/^whsec_[A-Za-z0-9+/=]{40,}$/);
  await expect(create.getByRole("heading", { name: "Signing secret" })).toBeFocused();
  const secret = await secretField.inputValue();
  await create.getByRole("button", { name: "Copy secret" }).click();
  await expect(create.getByText("The secret was copied to the clipboard.")).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
  await expectAccessible(page);
  await create.getByRole("button", { name: "I have saved it" }).click();
  await expect(secretField).toHaveCount(0);

  const card = list.getByRole("listitem").filter({ has: page.getByRole("heading", { name: endpoint }) });
  await expect(card.getByText("Active", { exact: true })).toBeVisible();
  await expect(card).toContainText("Zapier test");
  await expect(card).toContainText("Sends 2 events: A task you can see was completed, A task you can see was created.");
  await page.reload();
  expect(await page.content()).not.toContain(secret);

  // Paused, also after a reload; then resumed.
  await card.getByRole("button", { name: "Pause" }).click();
  await expect(card.getByRole("status")).toHaveText("The webhook was paused: no events are sent until you resume it.");
  await expect(card.getByText("Paused", { exact: true })).toBeVisible();
  await page.reload();
  await expect(card.getByText("Paused", { exact: true })).toBeVisible();
  await expect(card.getByRole("button", { name: "Send a test" })).toHaveCount(0);
  await card.getByRole("button", { name: "Resume" }).click();
  await expect(card.getByText("Active", { exact: true })).toBeVisible();

  // Changed: a new note and every event.
  await card.getByRole("button", { name: "Edit" }).click();
  const edit = card.getByRole("form", { name: "Change the webhook" });
  await expect(edit.getByLabel("Endpoint URL", { exact: true })).toBeFocused();
  await edit.getByLabel("Note (optional)").fill("Zapier, all events");
  await edit.getByLabel("All events, including ones added later").check();
  await edit.getByRole("button", { name: "Save changes" }).click();
  await expect(card.getByRole("status")).toHaveText("The webhook was saved.");
  await expect(card).toContainText("Zapier, all events");
  await expect(card).toContainText("Sends all events.");

  // A test: the host does not resolve, so it is not delivered, and the deliveries say so.
  await card.getByRole("button", { name: "Send a test" }).click();
  await expect(card.getByRole("alert")).toContainText("The test could not be delivered", { timeout: 20_000 });
  await card.getByText("Recent deliveries").click();
  const delivery = card.locator(".webhook-delivery").first();
  await expect(delivery).toContainText("Test message");
  await expect(delivery).toContainText("1 attempt");

  await expectAccessible(page);

  // Deleting asks first.
  await card.getByRole("button", { name: "Delete" }).click();
  await expect(card.getByRole("group", { name: /^Delete this webhook\?/ })).toBeVisible();
  await card.getByRole("button", { name: "Yes, delete it" }).click();
  await expect(list.getByRole("status")).toHaveText("The webhook was deleted.");
  await expect(list.getByText("You have no webhooks yet.")).toBeVisible();
  expect(((await (await page.request.get("/api/v1/webhooks")).json()) as { items: unknown[] }).items).toEqual([]);
  expect(errors).toEqual([]);
});
