import { randomUUID } from "node:crypto";
import { expect, test, type APIRequestContext, type Page } from "./fixtures";
import { expectAccessibleInBothThemes } from "./axe";
import { SiteHeader } from "./pages/site-header";
import { collectErrors } from "./page-errors";

/*
 * The family page. Dana creates a family workspace and invites Noa as a child; Noa accepts, shares one of her task
 * groups from the page, and Dana sees it among the shared groups; Dana, the only parent, may not leave; she makes
 * Noa a parent, stops sharing the group, removes Noa, makes an invitation link, renames and deletes the workspace. In
 * Hebrew on a phone the page reads right to left, and a child who joined leaves. axe passes, light and dark.
 */

test.use({ timezoneId: "Europe/Prague" });
// Two people, several pages, axe in two themes on each: more than the default 30 seconds on a busy machine.
test.describe.configure({ timeout: 120_000 });

async function register(request: APIRequestContext, name: string, locale = "en") {
  const email = `family-${randomUUID()}@example.com`;
  const response = await request.post("/api/v1/auth/register", {
    data: { name, email, password: `pw-${randomUUID()}`, locale, timeZone: "Europe/Prague" },
  });
  expect(response.status()).toBe(201);
  return { email };
}

const section = (page: Page, id: string) => page.locator("section", { has: page.locator(`#${id}`) });

test("family: create, invite a child who accepts, share a group, change role, unshare, remove, link, rename, delete", async ({
  browser,
}) => {
  const danaContext = await browser.newContext();
  const noaContext = await browser.newContext();
  const dana = await danaContext.newPage();
  const noa = await noaContext.newPage();
  const errors = [...collectErrors(dana), ...collectErrors(noa)];
  await register(dana.request, "Dana Parent");
  const noaAccount = await register(noa.request, "Noa Child");

  await dana.goto("/en/tasks");
  await new SiteHeader(dana).follow("Family");
  await expect(dana).toHaveURL(/\/en\/family$/);
  await expect(dana.getByRole("heading", { level: 1 })).toHaveText("Family");
  const create = section(dana, "family-new-title");
  await create.getByRole("button", { name: "Create family workspace" }).click();
  await expect(create.getByText("Enter a name of 1 to 100 characters.")).toBeVisible();
  await expectAccessibleInBothThemes(dana);
  await create.getByLabel("Family name").fill("Levi home");
  await create.getByRole("button", { name: "Create family workspace" }).click();
  await expect(dana.getByRole("heading", { level: 1 })).toHaveText("Levi home");
  await expect(dana.getByText("Your role: Parent")).toBeVisible();

  const invite = section(dana, "family-invite-title");
  await invite.getByLabel("Email", { exact: true }).fill(noaAccount.email);
  await invite.getByRole("button", { name: "Invite", exact: true }).click();
  await expect(invite.getByRole("status")).toHaveText(`Invitation sent to ${noaAccount.email}. They join once they accept it.`);

  await noa.goto("/en/requests");
  const invitation = noa.getByRole("listitem").filter({ hasText: "Levi home" });
  await invitation.getByRole("button", { name: "Accept" }).click();
  await expect(invitation).toHaveCount(0);
  await noa.goto("/en/family");
  await expect(noa.getByText("Your role: Child")).toBeVisible();
  await expect(section(noa, "family-invite-title")).toHaveCount(0);
  const noaGroups = section(noa, "family-groups-title");
  await expect(noaGroups.getByText("No task group is shared with the family yet.")).toBeVisible();
  await noaGroups.getByRole("button", { name: "Share with the family" }).click();
  await expect(noaGroups.getByRole("status")).toContainText("is now shared with the family.");
  await expect(noaGroups.getByText("Shared by (you)")).toBeVisible();
  await expectAccessibleInBothThemes(noa);

  await dana.reload();
  const members = section(dana, "family-members-title");
  await expect(members.getByRole("listitem").filter({ hasText: "Noa Child" })).toBeVisible();
  await expect(section(dana, "family-groups-title").getByText("Shared by Noa Child")).toBeVisible();
  // Dana, the only parent, may not leave while Noa is a member.
  await members.getByRole("button", { name: "Leave the family" }).click();
  await expect(members.getByRole("alert")).toHaveText("Someone must stay parent: make another member a parent first.");
  await members.getByLabel("Role of Noa Child").selectOption("parent");
  await expect(members.getByRole("status")).toHaveText("Noa Child is now Parent.");
  await expectAccessibleInBothThemes(dana);
  // A parent stops sharing Noa's group: it leaves the family's list.
  const danaGroups = section(dana, "family-groups-title");
  await danaGroups.getByRole("button", { name: /^Stop sharing / }).click();
  await expect(danaGroups.getByRole("status")).toContainText("is no longer shared.");
  await expect(danaGroups.getByText("No task group is shared with the family yet.")).toBeVisible();
  await members.getByRole("button", { name: "Remove Noa Child" }).click();
  await expect(members.getByRole("status")).toHaveText("Noa Child was removed.");
  await expect(members.getByRole("listitem")).toHaveCount(1);
  await noa.goto("/en/family");
  await expect(section(noa, "family-new-title")).toBeVisible();

  // An invitation link, to send by hand.
  await invite.getByRole("button", { name: "Create an invitation link" }).click();
  await expect(invite.getByLabel("Invitation link")).toHaveValue(/\/invite\/[\w-]+$/);

  // Rename, then delete after a confirmation.
  const settings = section(dana, "family-settings-title");
  await settings.getByLabel("Family name").fill("Levi household");
  await settings.getByRole("button", { name: "Save" }).click();
  await expect(settings.getByRole("status")).toHaveText("Saved.");
  await expect(dana.getByRole("heading", { level: 1 })).toHaveText("Levi household");
  await expectAccessibleInBothThemes(dana);
  await settings.getByRole("button", { name: "Delete family workspace" }).click();
  await expect(settings.getByText("Delete the family workspace “Levi household” for everyone?", { exact: false })).toBeVisible();
  await settings.getByRole("button", { name: "Delete the family workspace" }).click();
  await expect(dana.getByRole("heading", { level: 1 })).toHaveText("Family");
  await expect(section(dana, "family-new-title")).toBeVisible();
  expect(errors).toEqual([]);
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test("family in Hebrew, right to left: create a workspace; a child who joined leaves", async ({ page, browser }) => {
    const errors = collectErrors(page);
    await register(page.request, "Dana Levi", "he");
    const childContext = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const child = await childContext.newPage();
    errors.push(...collectErrors(child));
    const childAccount = await register(child.request, "Noa Levi", "he");
    await page.goto("/he/family");
    await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("משפחה");
    await expectAccessibleInBothThemes(page);
    await page.getByLabel("שם המשפחה").fill("משפחת לוי");
    await page.getByRole("button", { name: "יצירת המרחב המשפחתי" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("משפחת לוי");
    await expect(page.getByText("התפקיד שלך: הורה")).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth)).toBe(false);
    await expectAccessibleInBothThemes(page);

    // Invited by e-mail from the page, the child accepts (through the API) and leaves from the page.
    const invite = section(page, "family-invite-title");
    await invite.getByLabel("דוא״ל", { exact: true }).fill(childAccount.email);
    await invite.getByRole("button", { name: "הזמנה", exact: true }).click();
    await expect(invite.getByRole("status")).toContainText(childAccount.email);
    const received = await child.request.get("/api/v1/invitations/received");
    const [invitation] = (await received.json()).items as { id: string }[];
    expect((await child.request.post(`/api/v1/invitations/${invitation!.id}/accept`)).status()).toBe(200);
    await child.goto("/he/family");
    await expect(child.locator("html")).toHaveAttribute("dir", "rtl");
    await expect(child.getByText("התפקיד שלך: ילד/ה")).toBeVisible();
    await expectAccessibleInBothThemes(child);
    await section(child, "family-members-title").getByRole("button", { name: "עזיבת המשפחה" }).click();
    await expect(section(child, "family-new-title")).toBeVisible();
    await page.reload();
    await expect(section(page, "family-members-title").getByRole("listitem")).toHaveCount(1);
    await childContext.close();
    expect(errors).toEqual([]);
  });
});
