import { randomUUID } from "node:crypto";
import { expect, test, type APIRequestContext } from "./fixtures";
import { expectAccessibleInBothThemes } from "./axe";
import { DESKTOP, fill, messagesOf, PHONE } from "./locales";

/*
 * The task page's comments and history: the owner comments with an @ mention picked from the autocomplete (by
 * keyboard), the Markdown shows formatted and raw HTML shows as text, the mentioned person is notified, the owner
 * edits and deletes their comment and the history tells of it; another person's comments and changes to the task
 * show live; the autocomplete offers everyone who can see the task (a project's members too). In English on a desktop
 * and in Hebrew (right to left) on a phone, axe in the light and dark themes.
 */

const wordsOf = (locale: string) => messagesOf(locale).TaskTimeline;
const WORDS = { en: wordsOf("en"), he: wordsOf("he") };

async function register(request: APIRequestContext, name: string, locale: string) {
  const response = await request.post("/api/v1/auth/register", {
    data: { name, email: `comments-${randomUUID()}@example.com`, password: `pw-${randomUUID()}`, locale },
  });
  expect(response.status()).toBe(201);
  const body = await response.json();
  return { id: body.user.id as string, token: body.token as string };
}

for (const [locale, dir, viewport] of [
  ["en", "ltr", DESKTOP],
  ["he", "rtl", PHONE],
] as const) {
  test(`task comments and history (${locale}, ${viewport.width}×${viewport.height}): mention by @, Markdown, edit, delete`, async ({
    page,
    request,
  }) => {
    // Six axe runs of the whole task page (three states, two themes).
    test.setTimeout(150_000);
    const t = WORDS[locale];
    await page.setViewportSize(viewport);
    await register(page.request, "Olga Owner", locale);
    const helper = await register(request, "Cyril Collaborator", locale);
    const created = await page.request.post("/api/v1/tasks", { data: { title: "Paint the fence" } });
    expect(created.status()).toBe(201);
    const task = (await created.json()) as { id: string };
    const asked = await page.request.post(`/api/v1/tasks/${task.id}/collaboration-requests`, {
      data: { kind: "collaborate", userId: helper.id },
    });
    expect(asked.status()).toBe(201);
    const accepted = await request.post(`/api/v1/collaboration-requests/${(await asked.json()).id}/accept`, {
      headers: { Authorization: `Bearer ${helper.token}` },
    });
    expect(accepted.status()).toBe(200);
    // Raw HTML in a comment is shown as the text it is.
    const hostile = await request.post(`/api/v1/tasks/${task.id}/comments`, {
      headers: { Authorization: `Bearer ${helper.token}` },
      data: { body: 'Careful: <img src=x onerror="alert(1)"> [link](javascript:alert(1))' },
    });
    expect(hostile.status()).toBe(201);

    await page.goto(`/${locale}/tasks/${task.id}`);
    await expect(page.locator("html")).toHaveAttribute("dir", dir);
    const timeline = page.getByRole("region", { name: t.title });
    await expect(timeline.getByText(fill(t.created, { name: "Olga Owner" }))).toBeVisible();
    const hostileItem = timeline.getByRole("listitem").filter({ hasText: "Careful:" });
    await expect(hostileItem).toContainText('<img src=x onerror="alert(1)">');
    await expect(hostileItem.locator("img")).toHaveCount(0);
    await expect(hostileItem.getByRole("link")).toHaveCount(0);

    // Typing @ and part of a name offers the people of the task; the keyboard picks one.
    const box = timeline.getByRole("textbox", { name: t.commentLabel });
    await box.click();
    await box.pressSequentially("Looks **good**, @Cyr");
    const suggestions = timeline.getByRole("listbox", { name: t.mentionSuggestions });
    await expect(suggestions.getByRole("option", { name: "Cyril Collaborator" })).toBeVisible();
    await expectAccessibleInBothThemes(page);
    await box.press("Enter");
    await expect(suggestions).toBeHidden();
    await expect(box).toHaveValue("Looks **good**, @Cyril Collaborator ");
    await box.pressSequentially("see you");
    await timeline.getByRole("button", { name: t.send, exact: true }).click();

    const mine = timeline.getByRole("listitem").filter({ hasText: "see you" });
    await expect(mine.locator("strong", { hasText: "good" })).toBeVisible();
    await expect(box).toHaveValue("");
    await expectAccessibleInBothThemes(page);

    // The mentioned collaborator got a notification.
    const notes = await request.get("/api/v1/notifications", { headers: { Authorization: `Bearer ${helper.token}` } });
    expect((await notes.json()).items).toEqual(
      expect.arrayContaining([expect.objectContaining({ kind: "comment.mentioned", taskId: task.id })]),
    );

    // Only one's own comment has an Edit button; the owner may delete anyone's.
    await expect(hostileItem.getByRole("button", { name: new RegExp(t.edit) })).toHaveCount(0);
    await mine.getByRole("button", { name: new RegExp(t.edit) }).click();
    const editor = mine.getByRole("textbox", { name: t.editLabel });
    await editor.fill("Looks **great**, @Cyril Collaborator see you");
    await mine.getByRole("button", { name: t.save }).click();
    await expect(mine.locator("strong", { hasText: "great" })).toBeVisible();
    await expect(mine.getByText(t.edited)).toBeVisible();

    await mine.getByRole("button", { name: new RegExp(t.delete) }).click();
    await expect(timeline.getByRole("listitem").filter({ hasText: "see you" })).toHaveCount(0);

    // After a reload the history tells of the deletion; the comment stays gone.
    await page.reload();
    await expect(timeline.getByText(fill(t.commentDeleted, { name: "Olga Owner" }))).toBeVisible();
    await expect(timeline.getByRole("listitem").filter({ hasText: "see you" })).toHaveCount(0);
    await expectAccessibleInBothThemes(page);
  });
}

test("the timeline follows live: another person's comment, edit and task change appear, a deletion goes (he and en)", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const ownerContext = await browser.newContext();
  const helperContext = await browser.newContext();
  try {
    const ownerPage = await ownerContext.newPage();
    const helperPage = await helperContext.newPage();
    const he = WORDS.he;
    const en = WORDS.en;
    await register(ownerPage.request, "Olga Owner", "he");
    const helper = await register(helperPage.request, "Cyril Collaborator", "en");
    const created = await ownerPage.request.post("/api/v1/tasks", { data: { title: "Paint the fence", priority: "normal" } });
    const task = (await created.json()) as { id: string };
    const asked = await ownerPage.request.post(`/api/v1/tasks/${task.id}/collaboration-requests`, {
      data: { kind: "collaborate", userId: helper.id },
    });
    const accepted = await helperPage.request.post(`/api/v1/collaboration-requests/${(await asked.json()).id}/accept`);
    expect(accepted.status()).toBe(200);

    await ownerPage.goto(`/he/tasks/${task.id}`);
    await helperPage.goto(`/en/tasks/${task.id}`);
    const ownerTimeline = ownerPage.getByRole("region", { name: he.title });
    const helperTimeline = helperPage.getByRole("region", { name: en.title });
    await expect(ownerPage.locator(".task-live-live")).toBeVisible();
    await expect(helperPage.locator(".task-live-live")).toBeVisible();

    // The helper comments on their page: it shows on the owner's without a reload, once.
    const box = helperTimeline.getByRole("textbox", { name: en.commentLabel });
    await box.fill("I bought the paint");
    await helperTimeline.getByRole("button", { name: en.send, exact: true }).click();
    const comment = ownerTimeline.getByRole("listitem").filter({ hasText: "I bought the paint" });
    await expect(comment).toHaveCount(1);
    await expect(comment).toContainText("Cyril Collaborator");
    await expect(helperTimeline.getByRole("listitem").filter({ hasText: "I bought the paint" })).toHaveCount(1);

    // Edited on the helper's page: the owner sees the new words, marked edited.
    // (Found by its author: while it is edited, its text is the editor's.)
    const mine = helperTimeline.locator("li.timeline-comment").filter({ hasText: "Cyril Collaborator" });
    await mine.getByRole("button", { name: new RegExp(en.edit) }).click();
    await mine.getByRole("textbox", { name: en.editLabel }).fill("I bought the **white** paint");
    await mine.getByRole("button", { name: en.save }).click();
    const edited = ownerTimeline.getByRole("listitem").filter({ hasText: "I bought the white paint" });
    await expect(edited.locator("strong", { hasText: "white" })).toBeVisible();
    await expect(edited.getByText(he.edited)).toBeVisible();

    // The helper changes the task (through the API, as another app would): the owner's history tells of it.
    const patched = await helperPage.request.patch(`/api/v1/tasks/${task.id}`, { data: { priority: "urgent" } });
    expect(patched.status()).toBe(200);
    await expect(
      ownerTimeline.getByText(
        fill(he.changedFromTo, { name: "Cyril Collaborator", field: he.field.priority, from: "רגילה", to: "דחופה" }),
      ),
    ).toBeVisible();
    await expectAccessibleInBothThemes(ownerPage);

    // The owner deletes the comment: it goes from the helper's page, whose history tells of the deletion.
    await edited.getByRole("button", { name: new RegExp(he.delete) }).click();
    await expect(ownerTimeline.getByRole("listitem").filter({ hasText: "white paint" })).toHaveCount(0);
    await expect(helperTimeline.getByRole("listitem").filter({ hasText: "white paint" })).toHaveCount(0);
    await expect(helperTimeline.getByText(fill(en.commentDeleted, { name: "Olga Owner" }))).toBeVisible();
  } finally {
    await ownerContext.close();
    await helperContext.close();
  }
});

test("the @ autocomplete offers a project's members who can see the task, and mentions them", async ({ page, browser }) => {
  test.slow(); // two people, a project invitation and two axe runs
  const t = WORDS.en;
  const colleagueContext = await browser.newContext();
  try {
    const colleaguePage = await colleagueContext.newPage();
    await register(page.request, "Olga Owner", "en");
    const colleague = await register(colleaguePage.request, "Petr Project", "en");
    const project = await page.request.post("/api/v1/projects", { data: { name: "House" } });
    expect(project.status()).toBe(201);
    const projectId = (await project.json()).id as string;
    const invited = await page.request.post(`/api/v1/projects/${projectId}/members`, { data: { userId: colleague.id } });
    expect(invited.status()).toBe(202);
    const invitationId = (await invited.json()).invitation.id as string;
    expect((await colleaguePage.request.post(`/api/v1/invitations/${invitationId}/accept`)).status()).toBe(200);
    const created = await page.request.post("/api/v1/tasks", { data: { title: "Fix the roof", projectId } });
    const task = (await created.json()) as { id: string };

    // Petr is on the project, not on the task itself: the autocomplete offers him all the same.
    await page.goto(`/en/tasks/${task.id}`);
    const timeline = page.getByRole("region", { name: t.title });
    const box = timeline.getByRole("textbox", { name: t.commentLabel });
    await box.click();
    await box.pressSequentially("Can you look, @Pet");
    const suggestions = timeline.getByRole("listbox", { name: t.mentionSuggestions });
    await expect(suggestions.getByRole("option")).toHaveText(["Petr Project"]);
    await expectAccessibleInBothThemes(page);
    await box.press("Enter");
    await expect(box).toHaveValue("Can you look, @Petr Project ");
    await timeline.getByRole("button", { name: t.send, exact: true }).click();
    await expect(timeline.getByRole("listitem").filter({ hasText: "Can you look" })).toBeVisible();

    // The mention went through (it is someone who can see the task), and Petr was told.
    const notes = await colleaguePage.request.get("/api/v1/notifications");
    expect((await notes.json()).items).toEqual(
      expect.arrayContaining([expect.objectContaining({ kind: "comment.mentioned", taskId: task.id })]),
    );
  } finally {
    await colleagueContext.close();
  }
});
