import { randomUUID } from "node:crypto";
import { expect, test, type APIRequestContext } from "./fixtures";
import { expectAccessibleInBothThemes } from "./axe";
import { CirclePage } from "./pages/circle-page";
import { SiteHeader } from "./pages/site-header";
import { collectErrors } from "./page-errors";

/*
 * The team pages. Ann creates a team, invites Ben by e-mail; Ben accepts in his Requests and becomes a member;
 * Ann sees the team's tasks and each member's workload, makes Ben an admin, cannot leave as the last owner,
 * removes Ben, makes an invitation link, renames and deletes the team. The only owner hands over: refused leaving,
 * she makes a member owner through his role and leaves, and he renames and deletes the team. In Hebrew on a phone,
 * right to left, a plain member sees no management and leaves. axe passes on every page, light and dark.
 */

test.use({ timezoneId: "Europe/Prague" });
// Two people, several pages, axe in two themes on each: more than the default 30 seconds on a busy machine.
test.describe.configure({ timeout: 120_000 });

/** Registers through the page's request context, which signs its browser in too. */
async function register(request: APIRequestContext, name: string, locale = "en") {
  const email = `team-${randomUUID()}@example.com`;
  const response = await request.post("/api/v1/auth/register", {
    data: { name, email, password: `pw-${randomUUID()}`, locale, timeZone: "Europe/Prague" },
  });
  expect(response.status()).toBe(201);
  return { email, id: (await response.json()).user.id as string };
}

test("teams: create, invite by e-mail and accept, tasks and workload, change role, remove, link, rename, delete", async ({
  browser,
}) => {
  const annContext = await browser.newContext();
  const benContext = await browser.newContext();
  const annPage = await annContext.newPage();
  const benPage = await benContext.newPage();
  const errors = [...collectErrors(annPage), ...collectErrors(benPage)];
  const ann = await register(annPage.request, "Ann Owner");
  const ben = await register(benPage.request, "Ben Helper");
  const teams = new CirclePage(annPage, "teams");

  // The list: empty at first, reached from the main navigation; an empty name is refused next to the field.
  await annPage.goto("/en/tasks");
  await new SiteHeader(annPage).follow("Teams");
  await expect(annPage).toHaveURL(/\/en\/teams$/);
  await expect(teams.heading).toHaveText("Teams");
  await expect(annPage.getByText("No teams yet. Create one above, or accept an invitation.")).toBeVisible();
  await teams.newForm.getByRole("button", { name: "Create team" }).click();
  await expect(teams.newForm.getByText("Enter a name of 1 to 100 characters.")).toBeVisible();
  await expect(teams.newForm.getByLabel("Team name")).toHaveAttribute("aria-invalid", "true");
  await expectAccessibleInBothThemes(annPage);

  await teams.newForm.getByLabel("Team name").fill("Garden club");
  await teams.newForm.getByLabel("Description").fill("Weeding on Saturdays");
  await teams.newForm.getByRole("button", { name: "Create team" }).click();
  await expect(annPage).toHaveURL(/\/en\/teams\/[0-9a-f-]{36}$/);
  const teamId = teams.id();
  await expect(teams.heading).toHaveText("Garden club");
  await expect(annPage.getByText("Your role: Owner")).toBeVisible();
  await expect(teams.tasks.getByText("No tasks here yet.")).toBeVisible();

  // Two tasks of the team, Ann's own: one in progress, one to do; a task outside the team is not listed.
  for (const [title, status] of [
    ["Mow the lawn", "in_progress"],
    ["Buy seeds", "todo"],
  ] as const) {
    const created = await annPage.request.post("/api/v1/tasks", {
      data: { title, status, userGroupId: teamId, assigneeIds: [ann.id] },
    });
    expect(created.status()).toBe(201);
  }
  expect((await annPage.request.post("/api/v1/tasks", { data: { title: "Private errand" } })).status()).toBe(201);

  // Invited by e-mail, Ben is not a member until he accepts.
  await teams.invite.getByLabel("Email", { exact: true }).fill(ben.email);
  await teams.invite.getByRole("button", { name: "Invite", exact: true }).click();
  await expect(teams.invite.getByRole("status")).toHaveText(`Invitation sent to ${ben.email}. They join once they accept it.`);
  await expect(teams.members.getByRole("listitem")).toHaveCount(1);

  await benPage.goto("/en/requests");
  const invitation = benPage.getByRole("listitem").filter({ hasText: "Garden club" });
  await invitation.getByRole("button", { name: "Accept" }).click();
  await expect(invitation).toHaveCount(0);
  await benPage.goto("/en/teams");
  await expect(benPage.locator(".circle-card")).toHaveCount(1);
  await expect(benPage.locator(".circle-card")).toContainText("Member");

  await annPage.reload();
  await expect(teams.tasks.getByRole("listitem")).toHaveText([/Buy seeds/, /Mow the lawn/]);
  // The team's tasks as a board: each in its status's column, Ann's own errand not on it; the filter names the team.
  await teams.tasks.getByRole("link", { name: "Show as a board" }).click();
  await expect(annPage).toHaveURL(new RegExp(`/en/board\\?userGroupId=${teamId}$`));
  await expect(annPage.locator('[data-status="todo"]')).toContainText("Buy seeds");
  await expect(annPage.locator('[data-status="in_progress"]')).toContainText("Mow the lawn");
  await expect(annPage.getByText("Private errand")).toHaveCount(0);
  await expect(annPage.getByLabel("Team", { exact: true })).toHaveValue(teamId);
  await annPage.goto(`/en/teams/${teamId}`);
  await expect(teams.members.getByRole("listitem")).toHaveCount(2);
  // In progress, to do, done, overdue.
  await expect(teams.workloadRow("Ann Owner").getByRole("cell")).toHaveText(["1", "1", "0", "0"]);
  await expect(teams.workloadRow("Ben Helper").getByRole("cell")).toHaveText(["0", "0", "0", "0"]);
  // Ticking a task off in the list moves it to done in the workload.
  await teams.tasks.getByRole("checkbox", { name: /Buy seeds/ }).check();
  await annPage.reload();
  await expect(teams.workloadRow("Ann Owner").getByRole("cell")).toHaveText(["1", "0", "1", "0"]);
  await expectAccessibleInBothThemes(annPage);

  // Ben becomes an admin; Ann, the only owner, may not leave.
  await teams.member("Ben Helper").getByLabel("Role of Ben Helper").selectOption("admin");
  await expect(teams.members.getByRole("status")).toHaveText("Ben Helper is now Admin.");
  await expect(teams.member("Ben Helper").getByLabel("Role of Ben Helper")).toHaveValue("admin");
  await teams.member("Ann Owner").getByRole("button", { name: "Leave team" }).click();
  await expect(teams.members.getByRole("alert")).toHaveText("Someone must stay owner: make another member owner first.");
  await benPage.goto(`/en/teams/${teamId}`);
  await expect(benPage.getByText("Your role: Admin")).toBeVisible();

  // Ann removes Ben: his page of the team is gone.
  await teams.member("Ben Helper").getByRole("button", { name: "Remove Ben Helper" }).click();
  await expect(teams.members.getByRole("status")).toHaveText("Ben Helper was removed.");
  await expect(teams.members.getByRole("listitem")).toHaveCount(1);
  expect((await benPage.goto(`/en/teams/${teamId}`))?.status()).toBe(404);

  // An invitation link, to send by hand.
  await teams.invite.getByRole("button", { name: "Create an invitation link" }).click();
  await expect(teams.invite.getByLabel("Invitation link")).toHaveValue(/\/invite\/[\w-]+$/);

  // Rename, then delete after a confirmation.
  await teams.settings.getByLabel("Team name").fill("Allotment club");
  await teams.settings.getByRole("button", { name: "Save" }).click();
  await expect(teams.settings.getByRole("status")).toHaveText("Saved.");
  await expect(teams.heading).toHaveText("Allotment club");
  await teams.settings.getByRole("button", { name: "Delete team" }).click();
  await expect(teams.settings.getByText("Delete the team “Allotment club” for everyone?", { exact: false })).toBeVisible();
  await teams.settings.getByRole("button", { name: "Delete the team" }).click();
  await expect(annPage).toHaveURL(/\/en\/teams$/);
  await expect(annPage.getByText("No teams yet. Create one above, or accept an invitation.")).toBeVisible();
  expect(errors).toEqual([]);
});

test("teams: the only owner hands over: refused leaving, makes a member owner, leaves; the new owner renames and deletes", async ({
  page,
  browser,
}) => {
  const benContext = await browser.newContext();
  const benPage = await benContext.newPage();
  const errors = [...collectErrors(page), ...collectErrors(benPage)];
  await register(page.request, "Ann Owner");
  const ben = await register(benPage.request, "Ben Helper");
  const teams = new CirclePage(page, "teams");

  await teams.goto("en");
  await teams.newForm.getByLabel("Team name").fill("Choir");
  await teams.newForm.getByRole("button", { name: "Create team" }).click();
  await expect(page).toHaveURL(/\/en\/teams\/[0-9a-f-]{36}$/);
  const teamId = teams.id();
  await teams.invite.getByLabel("Email", { exact: true }).fill(ben.email);
  await teams.invite.getByRole("button", { name: "Invite", exact: true }).click();
  await expect(teams.invite.getByRole("status")).toContainText(ben.email);
  await benPage.goto("/en/requests");
  const invitation = benPage.getByRole("listitem").filter({ hasText: "Choir" });
  await invitation.getByRole("button", { name: "Accept" }).click();
  await expect(invitation).toHaveCount(0);

  // Ann, the only owner, may not leave: the page says to make someone else owner first, and she stays.
  await page.reload();
  await expect(teams.member("Ben Helper").getByLabel("Role of Ben Helper")).toHaveValue("member");
  await teams.member("Ann Owner").getByRole("button", { name: "Leave team" }).click();
  await expect(teams.members.getByRole("alert")).toHaveText("Someone must stay owner: make another member owner first.");
  await expect(page).toHaveURL(new RegExp(`/en/teams/${teamId}$`));
  await expect(teams.members.getByRole("listitem")).toHaveCount(2);
  await expectAccessibleInBothThemes(page);

  // She makes Ben owner with his role control, then leaves: back to her list, the team gone from it and its page too.
  await teams.member("Ben Helper").getByLabel("Role of Ben Helper").selectOption("owner");
  await expect(teams.members.getByRole("status")).toHaveText("Ben Helper is now Owner.");
  await expect(teams.members.getByRole("alert")).toHaveCount(0);
  await expect(teams.member("Ben Helper").getByLabel("Role of Ben Helper")).toHaveValue("owner");
  await expectAccessibleInBothThemes(page);
  await teams.member("Ann Owner").getByRole("button", { name: "Leave team" }).click();
  await expect(page).toHaveURL(/\/en\/teams$/);
  await expect(page.getByText("No teams yet. Create one above, or accept an invitation.")).toBeVisible();
  expect((await teams.goto("en", teamId))?.status()).toBe(404);

  // Ben, in his own browser, is the owner now and the only member: he renames the team and deletes it.
  const benView = new CirclePage(benPage, "teams");
  await benView.goto("en", teamId);
  await expect(benPage.getByText("Your role: Owner")).toBeVisible();
  await expect(benView.members.getByRole("listitem")).toHaveCount(1);
  await expect(benView.member("Ben Helper")).toContainText("(you)");
  await expectAccessibleInBothThemes(benPage);
  await benView.settings.getByLabel("Team name").fill("Chamber choir");
  await benView.settings.getByRole("button", { name: "Save" }).click();
  await expect(benView.settings.getByRole("status")).toHaveText("Saved.");
  await expect(benView.heading).toHaveText("Chamber choir");
  await benView.settings.getByRole("button", { name: "Delete team" }).click();
  await expect(benView.settings.getByText("Delete the team “Chamber choir” for everyone?", { exact: false })).toBeVisible();
  await benView.settings.getByRole("button", { name: "Delete the team" }).click();
  await expect(benPage).toHaveURL(/\/en\/teams$/);
  await expect(benView.cards).toHaveCount(0);
  expect(errors).toEqual([]);
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test("teams in Hebrew, right to left: the owner creates and invites, a plain member sees no management and leaves", async ({
    browser,
  }) => {
    const ownerContext = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const memberContext = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const ownerPage = await ownerContext.newPage();
    const memberPage = await memberContext.newPage();
    const errors = [...collectErrors(ownerPage), ...collectErrors(memberPage)];
    await register(ownerPage.request, "Dana Levi", "he");
    const member = await register(memberPage.request, "Noa Cohen", "he");
    const teams = new CirclePage(ownerPage, "teams");

    await teams.goto("he");
    expect(await teams.direction()).toEqual({ lang: "he", dir: "rtl" });
    await expect(teams.heading).toHaveText("צוותים");
    await expectAccessibleInBothThemes(ownerPage);
    await teams.newForm.getByLabel("שם הצוות").fill("ועד הבית");
    await teams.newForm.getByRole("button", { name: "יצירת צוות" }).click();
    await expect(ownerPage).toHaveURL(/\/he\/teams\/[0-9a-f-]{36}$/);
    const teamId = teams.id();
    await expect(teams.heading).toHaveText("ועד הבית");

    await teams.invite.getByLabel("דוא״ל", { exact: true }).fill(member.email);
    await teams.invite.getByRole("button", { name: "הזמנה", exact: true }).click();
    await expect(teams.invite.getByRole("status")).toContainText(member.email);
    await expectAccessibleInBothThemes(ownerPage);

    const received = await memberPage.request.get("/api/v1/invitations/received");
    const [invitation] = (await received.json()).items as { id: string }[];
    expect((await memberPage.request.post(`/api/v1/invitations/${invitation!.id}/accept`)).status()).toBe(200);

    const memberView = new CirclePage(memberPage, "teams");
    await memberView.goto("he", teamId);
    expect(await memberView.direction()).toEqual({ lang: "he", dir: "rtl" });
    await expect(memberPage.getByText("התפקיד שלך: חבר")).toBeVisible();
    await expect(memberView.invite).toHaveCount(0);
    await expect(memberView.settings).toHaveCount(0);
    await expect(memberView.workloadRow("Dana Levi").getByRole("cell")).toHaveText(["0", "0", "0", "0"]);
    expect(await memberPage.evaluate(() => document.documentElement.scrollWidth > window.innerWidth)).toBe(false);
    await expectAccessibleInBothThemes(memberPage);

    // A member opens the team's board (in Hebrew, on a phone): the team's task is on it, the filter names the team.
    expect(
      (await ownerPage.request.post("/api/v1/tasks", { data: { title: "לתקן את האינטרקום", userGroupId: teamId } })).status(),
    ).toBe(201);
    await memberView.tasks.getByRole("link", { name: "הצגה כלוח" }).click();
    await expect(memberPage).toHaveURL(new RegExp(`/he/board\\?userGroupId=${teamId}$`));
    await expect(memberPage.locator('[data-status="todo"]')).toContainText("לתקן את האינטרקום");
    await expect(memberPage.getByLabel("צוות", { exact: true })).toHaveValue(teamId);
    await expectAccessibleInBothThemes(memberPage);
    await memberView.goto("he", teamId);

    await memberView.member("Noa Cohen").getByRole("button", { name: "עזיבת הצוות" }).click();
    await expect(memberPage).toHaveURL(/\/he\/teams$/);
    await expect(memberPage.getByText("אין עדיין צוותים.", { exact: false })).toBeVisible();
    await ownerPage.reload();
    await expect(teams.members.getByRole("listitem")).toHaveCount(1);
    expect(errors).toEqual([]);
  });
});
