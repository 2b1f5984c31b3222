import { randomUUID } from "node:crypto";
import { expect, test, type APIRequestContext } from "./fixtures";
import { expectAccessible } from "./axe";
import { TaskDetailPage } from "./pages/task-detail-page";
import { collectErrors } from "./page-errors";

/*
 * Collaboration between two people in two browser contexts: Alex asks Bea (by email, from the task page) to
 * collaborate, which invites her (an address without an account is answered the same way); Bea's requests page
 * shows the invitation without a reload and she accepts; Alex's task page then lists her as a collaborator, also
 * without a reload. Her edits then reach Alex's page live without touching what Alex is typing. Alex also invites
 * someone without an account and copies the link. In Hebrew, an invitation to a family workspace is accepted in
 * the app.
 */

async function register(request: APIRequestContext, name: string) {
  const email = `requests-${randomUUID()}@example.com`;
  const response = await request.post("/api/v1/auth/register", {
    data: { name, email, password: `pw-${randomUUID()}`, locale: "en", timeZone: "Europe/Prague" },
  });
  expect(response.status()).toBe(201);
  return { email, id: (await response.json()).user.id as string };
}

test("requests: an invitation to collaborate reaches the other person live, is accepted, and the task shows the collaborator", async ({
  browser,
  baseURL,
}) => {
  const alexContext = await browser.newContext();
  await alexContext.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseURL });
  const beaContext = await browser.newContext();
  const alexPage = await alexContext.newPage();
  const beaPage = await beaContext.newPage();
  const alexErrors = collectErrors(alexPage);
  const beaErrors = collectErrors(beaPage);
  await register(alexPage.request, "Alex Asker");
  const bea = await register(beaPage.request, "Bea Helper");
  const title = `Paint the fence ${randomUUID().slice(0, 8)}`;
  const created = await alexPage.request.post("/api/v1/tasks", { data: { title } });
  expect(created.status()).toBe(201);
  const taskId = (await created.json()).id as string;

  // Bea's inbox is empty and listening.
  await beaPage.goto("/en/requests");
  await expect(beaPage.getByRole("heading", { level: 1 })).toHaveText("Requests");
  await expect(beaPage.getByText("No invitation is waiting for you.")).toBeVisible();
  await expect(beaPage.getByText(/^Live:/)).toBeVisible();

  // Alex asks Bea from the task page, by email: an invitation to that address.
  const detail = new TaskDetailPage(alexPage);
  await detail.goto(taskId);
  await expect(alexPage.getByText(/^Live:/)).toBeVisible();
  await detail.ask("To work on it with you (collaborator)", bea.email);
  await expect(detail.status.filter({ hasText: `Invitation sent to ${bea.email}` })).toBeVisible();

  // An address without an account gets the very same answer: nothing tells whether an account exists.
  const nobody = `nobody-${randomUUID()}@example.com`;
  await detail.ask("To take on the task (assignee)", nobody);
  await expect(detail.status.filter({ hasText: `Invitation sent to ${nobody}` })).toBeVisible();
  await expect(detail.collaboration.getByRole("alert")).toHaveCount(0);

  // Bea sees it without reloading, with the task and who invites her, and accepts.
  const invitation = beaPage.getByRole("listitem").filter({ hasText: `Alex Asker invites you to the task “${title}”.` });
  await expect(invitation).toBeVisible();
  await expect(invitation.getByText("You would work on it together.")).toBeVisible();
  await expectAccessible(beaPage);
  await invitation.getByRole("button", { name: "Accept" }).click();
  await expect(beaPage.getByRole("status").filter({ hasText: `You joined “${title}”.` })).toBeVisible();
  await expect(beaPage.getByText("No invitation is waiting for you.")).toBeVisible();

  // Alex's page lists Bea as a collaborator, without a reload.
  await expect(detail.people.getByRole("listitem").filter({ hasText: "Bea Helper" })).toBeVisible();

  // Bea now opens the task.
  await beaPage.goto(`/en/tasks/${taskId}`);
  const beaDetail = new TaskDetailPage(beaPage);
  await expect(beaDetail.heading).toHaveText(title);
  await expect(beaDetail.people.getByText("Bea Helper (you)")).toBeVisible();

  // Alex is typing a description when Bea renames the task: the new title shows at once, Alex's text stays.
  await detail.field("Description").fill("Alex is still typing");
  await beaDetail.edit("Title", `${title}, white`);
  await expect(detail.heading).toHaveText(`${title}, white`);
  await expect(detail.field("Title")).toHaveValue(`${title}, white`);
  await expect(detail.field("Description")).toHaveValue("Alex is still typing");
  await expect(detail.field("Description")).toBeFocused();

  // Alex invites someone without an account and copies the link.
  await detail.invite.getByLabel("Their name (optional)", { exact: true }).fill("Cyril");
  await detail.invite.getByRole("button", { name: "Create invitation link" }).click();
  const link = detail.invite.getByLabel("Invitation link", { exact: true });
  await expect(link).toHaveValue(/\/invite\/[\w-]{20,}$/);
  await expect(detail.invite.getByRole("link", { name: "Send on WhatsApp" })).toHaveAttribute(
    "href",
    /^https:\/\/wa\.me\/\?text=/,
  );
  await expect(detail.invite.getByRole("link", { name: "Send on Telegram" })).toHaveAttribute(
    "href",
    /^https:\/\/t\.me\/share\/url\?url=/,
  );
  await expect(detail.invite.getByRole("link", { name: "Send as a text message" })).toHaveAttribute("href", /^sms:/);
  await detail.invite.getByRole("button", { name: "Copy link" }).click();
  await expect(detail.invite.getByRole("status")).toHaveText("Copied");
  expect(await alexPage.evaluate(() => navigator.clipboard.readText())).toBe(await link.inputValue());

  expect([...alexErrors, ...beaErrors]).toEqual([]);
  await alexContext.close();
  await beaContext.close();
});

test("requests: signed out goes to sign-in; a sent request is withdrawn from the inbox", async ({ page, request }) => {
  const errors = collectErrors(page);
  await page.goto("/en/requests");
  await expect(page).toHaveURL(/\/en\/sign-in\?next=%2Fen%2Frequests$/);

  await register(page.request, "Wanda Withdrawer");
  // Registered through the test's own request context: the browser stays signed in as Wanda.
  const otto = await register(request, "Otto Other");
  const created = await page.request.post("/api/v1/tasks", { data: { title: "Water the plants" } });
  const taskId = (await created.json()).id as string;
  const asked = await page.request.post(`/api/v1/tasks/${taskId}/collaboration-requests`, {
    data: { kind: "assign", userId: otto.id, message: "Just Tuesdays" },
  });
  expect(asked.status()).toBe(201);

  await page.goto("/en/requests");
  const sent = page.getByRole("listitem").filter({ hasText: "You asked Otto Other to take on this task." });
  await expect(sent.getByText("Just Tuesdays")).toBeVisible();
  await expect(sent.getByRole("link", { name: "Water the plants" })).toHaveAttribute("href", `/en/tasks/${taskId}`);
  await sent.getByRole("button", { name: "Withdraw" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Withdrawn: Water the plants" })).toBeVisible();
  await expect(sent.getByText("Withdrawn", { exact: true })).toBeVisible();
  await expect(page.getByText("None of your requests is waiting for an answer.")).toBeVisible();
  await expectAccessible(page);
  expect(errors).toEqual([]);
});

test("requests in Hebrew, right to left: an invitation to a family workspace is declined or accepted in the app", async ({
  browser,
}) => {
  const parentContext = await browser.newContext();
  const childContext = await browser.newContext();
  const parentPage = await parentContext.newPage();
  const childPage = await childContext.newPage();
  await register(parentPage.request, "Dana Parent");
  const child = await register(childPage.request, "Noa Child");
  expect((await parentPage.request.post("/api/v1/family", { data: { name: "Levi home" } })).status()).toBe(201);

  // The parent invites twice; nobody is a member until they say yes.
  for (let i = 0; i < 2; i++) {
    const invited = await parentPage.request.post("/api/v1/family/members", { data: { email: child.email, role: "child" } });
    expect(invited.status()).toBe(202);
  }
  await childPage.goto("/he/requests");
  await expect(childPage.locator("html")).toHaveAttribute("dir", "rtl");
  await expect(childPage.getByRole("heading", { name: "הזמנות בשבילך" })).toBeVisible();
  const invitations = childPage.getByRole("listitem").filter({ hasText: "Dana Parent מזמין/ה אותך למרחב המשפחתי “Levi home”." });
  await expect(invitations).toHaveCount(2);
  await expect(invitations.first().getByText("כילד/ה.")).toBeVisible();
  await expectAccessible(childPage);

  await invitations.first().getByRole("button", { name: "דחייה" }).click();
  await expect(childPage.getByRole("status").filter({ hasText: "דחית את ההזמנה אל “Levi home”." })).toBeVisible();
  await expect(invitations).toHaveCount(1);
  expect((await childPage.request.get("/api/v1/family")).status()).toBe(404);

  await invitations.first().getByRole("button", { name: "קבלה" }).click();
  await expect(childPage.getByRole("status").filter({ hasText: "הצטרפת אל “Levi home”." })).toBeVisible();
  await expect(childPage.getByText("אין הזמנה שמחכה לך.")).toBeVisible();
  const family = await (await childPage.request.get("/api/v1/family")).json();
  expect(family.members.map((member: { name: string }) => member.name)).toEqual(["Dana Parent", "Noa Child"]);
  await parentContext.close();
  await childContext.close();
});
