import { randomUUID } from "node:crypto";
import { expect, test } from "./fixtures";
import { expectAccessible } from "./axe";
import { TaskDetailPage } from "./pages/task-detail-page";

/*
 * Attachments on the task page (lib/media): a user registered through `page.request` (sharing the browser's cookies)
 * attaches a small PNG with the file input, sees it listed as a photo, downloads it byte for byte, and deletes it.
 */

const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);

test("task page: attach a PNG, see it listed, download it, delete it", async ({ page }) => {
  const email = `media-${randomUUID()}@example.com`;
  const registered = await page.request.post("/api/v1/auth/register", {
    data: { name: "Mia Media", email, password: `pw-${randomUUID()}`, locale: "en", timeZone: "Europe/Prague" },
  });
  expect(registered.status()).toBe(201);
  const created = await page.request.post("/api/v1/tasks", { data: { title: "Fix the sink" } });
  expect(created.status()).toBe(201);
  const task = (await created.json()) as { id: string };
  const detail = new TaskDetailPage(page);

  await detail.goto(task.id);
  await expect(detail.attachments.getByText("No files attached yet.")).toBeVisible();
  await expectAccessible(page);

  // Choosing an image presets the kind to Photo.
  await detail.attachments
    .getByLabel("File", { exact: true })
    .setInputFiles({ name: "leak.png", mimeType: "image/png", buffer: PNG });
  await expect(detail.attachments.getByLabel("Kind", { exact: true })).toHaveValue("photo");
  await detail.attachments.getByRole("button", { name: "Attach file" }).click();
  await expect(detail.status).toHaveText("Attached “leak.png”.");
  const link = detail.attachments.getByRole("link", { name: "leak.png" });
  await expect(link).toBeVisible();
  await expect(detail.attachments.getByText(`Photo · ${PNG.length} byte`)).toBeVisible();
  await expectAccessible(page);

  // It is still there after a reload, and downloads as the same bytes.
  await page.reload();
  const download = page.waitForEvent("download");
  await detail.attachments.getByRole("link", { name: "leak.png" }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe("leak.png");
  const chunks: Buffer[] = [];
  for await (const chunk of (await file.createReadStream())!) chunks.push(chunk as Buffer);
  expect(Buffer.concat(chunks).equals(PNG)).toBe(true);

  // A file whose bytes are not of the chosen kind is refused with a message.
  await detail.attachments
    .getByLabel("File", { exact: true })
    .setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("Buy a wrench") });
  await detail.attachments.getByLabel("Kind", { exact: true }).selectOption("photo");
  await detail.attachments.getByRole("button", { name: "Attach file" }).click();
  await expect(detail.attachments.getByRole("alert")).toHaveText(
    "The file is not of the chosen kind. Choose the kind that matches it.",
  );

  await detail.attachments.getByRole("button", { name: "Delete leak.png" }).click();
  await expect(detail.status).toHaveText("Deleted “leak.png”.");
  await expect(detail.attachments.getByText("No files attached yet.")).toBeVisible();
  const listed = await page.request.get(`/api/v1/tasks/${task.id}/media`);
  expect((await listed.json()).items).toEqual([]);
});
