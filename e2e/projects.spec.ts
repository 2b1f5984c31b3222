import { randomUUID } from "node:crypto";
import { expect, test, type APIRequestContext } from "./fixtures";
import { expectAccessibleInBothThemes } from "./axe";
import { CirclePage } from "./pages/circle-page";
import { SiteHeader } from "./pages/site-header";
import { collectErrors } from "./page-errors";

/*
 * The project pages. Pia creates a project and a task in it, sees it on the project's board, invites Max by e-mail
 * as a viewer; Max accepts and sees the project's tasks but may manage nothing; Pia makes him a member, cannot
 * demote herself as the only owner, removes him, makes an invitation link, renames and deletes the project. In
 * Hebrew on a phone the pages read right to left and a member leaves; and the only owner, refused leaving, makes a
 * member owner through her role and leaves, and the new owner renames and deletes the project. axe passes on every
 * page, light and dark.
 */

test.use({ timezoneId: "Europe/Prague" });
// Two people, several pages, axe in two themes on each: more than the default 30 seconds on a busy machine.
test.describe.configure({ timeout: 120_000 });

async function register(request: APIRequestContext, name: string, locale = "en") {
  const email = `project-${randomUUID()}@example.com`;
  const response = await request.post("/api/v1/auth/register", {
    data: { name, email, password: `pw-${randomUUID()}`, locale, timeZone: "Europe/Prague" },
  });
  expect(response.status()).toBe(201);
  return { email, id: (await response.json()).user.id as string };
}

/** Accepts the one invitation waiting for the signed-in user of `request`. */
async function acceptInvitation(request: APIRequestContext) {
  const received = await request.get("/api/v1/invitations/received");
  const [invitation] = (await received.json()).items as { id: string }[];
  expect((await request.post(`/api/v1/invitations/${invitation!.id}/accept`)).status()).toBe(200);
}

/** In Hebrew: a new project by this name, and an invitation by e-mail to `email`; answers the project's id. */
async function createAndInviteInHebrew(projects: CirclePage, name: string, email: string): Promise<string> {
  await projects.newForm.getByLabel("שם הפרויקט").fill(name);
  await projects.newForm.getByRole("button", { name: "יצירת פרויקט" }).click();
  await expect(projects.page).toHaveURL(/\/he\/projects\/[0-9a-f-]{36}$/);
  const projectId = projects.id();
  await projects.invite.getByLabel("דוא״ל", { exact: true }).fill(email);
  await projects.invite.getByRole("button", { name: "הזמנה", exact: true }).click();
  await expect(projects.invite.getByRole("status")).toContainText(email);
  return projectId;
}

test("projects: create, a task in it and on its board, invite a viewer who accepts, change role, remove, link, rename, delete", async ({
  browser,
}) => {
  const piaContext = await browser.newContext();
  const maxContext = await browser.newContext();
  const piaPage = await piaContext.newPage();
  const maxPage = await maxContext.newPage();
  const errors = [...collectErrors(piaPage), ...collectErrors(maxPage)];
  await register(piaPage.request, "Pia Planner");
  const max = await register(maxPage.request, "Max Viewer");
  const projects = new CirclePage(piaPage, "projects");

  await piaPage.goto("/en/tasks");
  await new SiteHeader(piaPage).follow("Projects");
  await expect(piaPage).toHaveURL(/\/en\/projects$/);
  await expect(projects.heading).toHaveText("Projects");
  await expect(piaPage.getByText("No projects yet. Create one above, or accept an invitation.")).toBeVisible();
  await expectAccessibleInBothThemes(piaPage);

  await projects.newForm.getByLabel("Project name").fill("Kitchen remodel");
  await projects.newForm.getByRole("button", { name: "Create project" }).click();
  await expect(piaPage).toHaveURL(/\/en\/projects\/[0-9a-f-]{36}$/);
  const projectId = projects.id();
  await expect(projects.heading).toHaveText("Kitchen remodel");
  const yesterday = new Date(Date.now() - 86_400_000).toISOString();
  const piaId = ((await (await piaPage.request.get("/api/v1/auth/me")).json()) as { id: string }).id;
  const task = await piaPage.request.post("/api/v1/tasks", {
    data: { title: "Order the tiles", projectId, dueAt: yesterday, assigneeIds: [piaId] },
  });
  expect(task.status()).toBe(201);
  await piaPage.reload();
  await expect(projects.tasks.getByRole("listitem")).toHaveText([/Order the tiles/]);
  await expect(projects.tasks.getByRole("link", { name: "Show as a board" })).toHaveAttribute(
    "href",
    `/en/board?projectId=${projectId}`,
  );
  // The workload: Pia has one task to do, and it is overdue.
  await expect(projects.workloadRow("Pia Planner").getByRole("cell")).toHaveText(["0", "1", "0", "1"]);
  // The project's tasks as a board: the task in its status's column, the filter naming the project.
  await projects.tasks.getByRole("link", { name: "Show as a board" }).click();
  await expect(piaPage).toHaveURL(new RegExp(`/en/board\\?projectId=${projectId}$`));
  await expect(piaPage.locator('[data-status="todo"]')).toContainText("Order the tiles");
  await expect(piaPage.getByLabel("Project", { exact: true })).toHaveValue(projectId);
  await expectAccessibleInBothThemes(piaPage);
  await projects.goto("en", projectId);

  // Max, invited as a viewer, joins by accepting; he sees the tasks, and no management.
  await projects.invite.getByLabel("Email", { exact: true }).fill(max.email);
  await projects.invite.getByLabel("Their role").selectOption("viewer");
  await projects.invite.getByRole("button", { name: "Invite", exact: true }).click();
  await expect(projects.invite.getByRole("status")).toHaveText(`Invitation sent to ${max.email}. They join once they accept it.`);
  await acceptInvitation(maxPage.request);
  const maxView = new CirclePage(maxPage, "projects");
  await maxView.goto("en", projectId);
  await expect(maxPage.getByText("Your role: Viewer")).toBeVisible();
  await expect(maxView.tasks.getByRole("listitem")).toHaveText([/Order the tiles/]);
  await expect(maxView.invite).toHaveCount(0);
  await expect(maxView.settings).toHaveCount(0);
  await expectAccessibleInBothThemes(maxPage);

  await piaPage.reload();
  await expect(projects.member("Max Viewer").getByLabel("Role of Max Viewer")).toHaveValue("viewer");
  await projects.member("Max Viewer").getByLabel("Role of Max Viewer").selectOption("member");
  await expect(projects.members.getByRole("status")).toHaveText("Max Viewer is now Member.");
  // The only owner cannot step down.
  await projects.member("Pia Planner").getByLabel("Role of Pia Planner").selectOption("admin");
  await expect(projects.members.getByRole("alert")).toHaveText("Someone must stay owner: make another member owner first.");
  await expectAccessibleInBothThemes(piaPage);

  await projects.member("Max Viewer").getByRole("button", { name: "Remove Max Viewer" }).click();
  await expect(projects.members.getByRole("status")).toHaveText("Max Viewer was removed.");
  expect((await maxPage.goto(`/en/projects/${projectId}`))?.status()).toBe(404);

  // An invitation link, to send by hand.
  await projects.invite.getByRole("button", { name: "Create an invitation link" }).click();
  await expect(projects.invite.getByLabel("Invitation link")).toHaveValue(/\/invite\/[\w-]+$/);

  // Rename, then delete after a confirmation.
  await projects.settings.getByLabel("Project name").fill("Bathroom remodel");
  await projects.settings.getByRole("button", { name: "Save" }).click();
  await expect(projects.settings.getByRole("status")).toHaveText("Saved.");
  await expect(projects.heading).toHaveText("Bathroom remodel");
  await projects.settings.getByRole("button", { name: "Delete project" }).click();
  await projects.settings.getByRole("button", { name: "Delete the project" }).click();
  await expect(piaPage).toHaveURL(/\/en\/projects$/);
  await expect(piaPage.getByText("No projects yet.", { exact: false })).toBeVisible();
  expect(errors).toEqual([]);
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test("projects in Hebrew, right to left: create, invite, a member's view, the member leaves", async ({ page, browser }) => {
    const errors = collectErrors(page);
    await register(page.request, "Dana Levi", "he");
    const memberContext = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const memberPage = await memberContext.newPage();
    const member = await register(memberPage.request, "Noa Cohen", "he");
    const projects = new CirclePage(page, "projects");

    await projects.goto("he");
    expect(await projects.direction()).toEqual({ lang: "he", dir: "rtl" });
    await expect(projects.heading).toHaveText("פרויקטים");
    const projectId = await createAndInviteInHebrew(projects, "שיפוץ המטבח", member.email);
    expect(await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth)).toBe(false);
    await expectAccessibleInBothThemes(page);

    await acceptInvitation(memberPage.request);
    await page.reload();
    await expect(projects.member("Noa Cohen").getByLabel("התפקיד של Noa Cohen")).toHaveValue("member");
    const memberView = new CirclePage(memberPage, "projects");
    await memberView.goto("he");
    await expect(memberPage.locator(".circle-card")).toContainText("שיפוץ המטבח");
    await memberView.goto("he", projectId);
    await expect(memberPage.getByText("התפקיד שלך: חבר")).toBeVisible();
    await expectAccessibleInBothThemes(memberPage);

    // The member leaves: back to the list, the project gone from it and from the owner's members.
    await memberView.member("Noa Cohen").getByRole("button", { name: "עזיבת הפרויקט" }).click();
    await expect(memberPage).toHaveURL(/\/he\/projects$/);
    await expect(memberPage.locator(".circle-card")).toHaveCount(0);
    await page.reload();
    await expect(projects.members.getByRole("listitem")).toHaveCount(1);
    expect(errors).toEqual([]);
  });

  test("projects in Hebrew, right to left: the only owner hands over to a member and leaves; the new owner renames and deletes", async ({
    page,
    browser,
  }) => {
    const errors = collectErrors(page);
    await register(page.request, "Dana Levi", "he");
    const memberContext = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const memberPage = await memberContext.newPage();
    errors.push(...collectErrors(memberPage));
    const member = await register(memberPage.request, "Noa Cohen", "he");
    const projects = new CirclePage(page, "projects");

    await projects.goto("he");
    const projectId = await createAndInviteInHebrew(projects, "גינה קהילתית", member.email);
    await acceptInvitation(memberPage.request);

    // Dana, the only owner, may not leave: she is told someone must stay owner, and stays.
    await page.reload();
    expect(await projects.direction()).toEqual({ lang: "he", dir: "rtl" });
    await expect(projects.member("Noa Cohen").getByLabel("התפקיד של Noa Cohen")).toHaveValue("member");
    await projects.member("Dana Levi").getByRole("button", { name: "עזיבת הפרויקט" }).click();
    await expect(projects.members.getByRole("alert")).toHaveText("מישהו חייב להישאר בעלים: קודם יש להפוך חבר אחר לבעלים.");
    await expect(page).toHaveURL(new RegExp(`/he/projects/${projectId}$`));
    await expect(projects.members.getByRole("listitem")).toHaveCount(2);
    expect(await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth)).toBe(false);
    await expectAccessibleInBothThemes(page);

    // She makes Noa owner with Noa's role control, then leaves: her list is empty and the project's page gone.
    await projects.member("Noa Cohen").getByLabel("התפקיד של Noa Cohen").selectOption("owner");
    await expect(projects.members.getByRole("status")).toHaveText("Noa Cohen מעכשיו בתפקיד בעלים.");
    await expect(projects.members.getByRole("alert")).toHaveCount(0);
    await expect(projects.member("Noa Cohen").getByLabel("התפקיד של Noa Cohen")).toHaveValue("owner");
    await expectAccessibleInBothThemes(page);
    await projects.member("Dana Levi").getByRole("button", { name: "עזיבת הפרויקט" }).click();
    await expect(page).toHaveURL(/\/he\/projects$/);
    await expect(page.getByText("אין עדיין פרויקטים.", { exact: false })).toBeVisible();
    expect((await projects.goto("he", projectId))?.status()).toBe(404);

    // Noa, on her own phone, is the owner now and the only member: she renames the project and deletes it.
    const memberView = new CirclePage(memberPage, "projects");
    await memberView.goto("he", projectId);
    expect(await memberView.direction()).toEqual({ lang: "he", dir: "rtl" });
    await expect(memberPage.getByText("התפקיד שלך: בעלים")).toBeVisible();
    await expect(memberView.members.getByRole("listitem")).toHaveCount(1);
    expect(await memberPage.evaluate(() => document.documentElement.scrollWidth > window.innerWidth)).toBe(false);
    await expectAccessibleInBothThemes(memberPage);
    await memberView.settings.getByLabel("שם הפרויקט").fill("גינת הירק");
    await memberView.settings.getByRole("button", { name: "שמירה" }).click();
    await expect(memberView.settings.getByRole("status")).toHaveText("נשמר.");
    await expect(memberView.heading).toHaveText("גינת הירק");
    await memberView.settings.getByRole("button", { name: "מחיקת הפרויקט" }).click();
    await expect(memberView.settings.getByText("למחוק את הפרויקט „גינת הירק” עבור כולם?", { exact: false })).toBeVisible();
    await memberView.settings.getByRole("button", { name: "למחוק את הפרויקט" }).click();
    await expect(memberPage).toHaveURL(/\/he\/projects$/);
    await expect(memberView.cards).toHaveCount(0);
    expect(errors).toEqual([]);
  });
});
