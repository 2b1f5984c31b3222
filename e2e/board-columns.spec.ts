import { randomUUID } from "node:crypto";
import { expect, test } from "./fixtures";
import { expectAccessible } from "./axe";
import { BoardPage } from "./pages/board-page";
import { collectErrors } from "./page-errors";

/*
 * A project's own board columns (issue 22): its owner adds a "Review" column mapped to in_progress in the "Edit
 * columns" dialog, moves a card into it, and finds it there after a reload.
 */

test("a project owner adds a Review column, moves a card into it, and it stays there after a reload", async ({ page }) => {
  const errors = collectErrors(page);
  const board = new BoardPage(page);
  const account = { email: `columns-${randomUUID()}@example.com`, password: `pw-${randomUUID()}` };
  const registered = await page.request.post("/api/v1/auth/register", {
    data: { ...account, name: "Olga Owner", locale: "en", timeZone: "Europe/Prague" },
  });
  expect(registered.status()).toBe(201);
  const project = await page.request.post("/api/v1/projects", { data: { name: "Release" } });
  expect(project.status()).toBe(201);
  const projectId = (await project.json()).id as string;
  const task = await page.request.post("/api/v1/tasks", { data: { title: "Ship the release", projectId } });
  expect(task.status()).toBe(201);

  await board.goto("en", `?projectId=${projectId}`);
  await board.expectTitles("To do", ["Ship the release"]);

  await page.getByRole("button", { name: "Edit columns", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Board columns" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("textbox", { name: "New column" })).toBeVisible();
  await expectAccessible(page);

  await dialog.getByRole("textbox", { name: "New column" }).fill("Review");
  await dialog.getByRole("combobox", { name: "Its status" }).selectOption("in_progress");
  await dialog.getByRole("button", { name: "Add column", exact: true }).click();
  await expect(dialog.getByRole("textbox", { name: "Name of “Review”" })).toHaveValue("Review");
  await expect(dialog.getByRole("combobox", { name: "Status of “Review”" })).toHaveValue("in_progress");
  await expectAccessible(page);
  await dialog.getByRole("button", { name: "Close", exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("button", { name: "Edit columns", exact: true })).toBeFocused();

  // The board shows the new column (it reloads after the change), after the status's own.
  await expect(board.column("Review")).toBeVisible();
  const moved = board.nextMove();
  await board.moveWithMenu("Ship the release", "To “Review”");
  const answer = await moved;
  expect(answer.status()).toBe(200);
  expect(answer.request().postDataJSON()).toMatchObject({ columnId: expect.any(String) });
  await board.expectTitles("Review", ["Ship the release"]);

  await page.reload();
  await board.expectTitles("Review", ["Ship the release"]);
  await board.expectTitles("In progress", []);
  await board.expectTitles("To do", []);
  expect(errors).toEqual([]);
});
