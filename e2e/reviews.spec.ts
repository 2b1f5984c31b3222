import { randomUUID } from "node:crypto";
import { expect, test } from "./fixtures";
import { expectAccessible } from "./axe";
import { ReviewsPage } from "./pages/reviews-page";
import { SiteHeader } from "./pages/site-header";
import { collectErrors } from "./page-errors";

/*
 * Spaced repetition in the browser: a card is made on /en/reviews (linked to a goal), it is due at once, its answer
 * is revealed and graded with the keyboard, and it leaves the due queue (the API agrees, and a reload too). The
 * briefing names the due card with a link here; the menu has a Reviews entry; the page passes axe, also in Hebrew.
 */

test("reviews: create a card, review it, it leaves the due queue", async ({ page }) => {
  const errors = collectErrors(page);
  const reviews = new ReviewsPage(page);

  await reviews.goto();
  await expect(page).toHaveURL(/\/en\/sign-in\?next=%2Fen%2Freviews$/);

  const account = { name: "Rita Reviews", email: `reviews-${randomUUID()}@example.com`, password: `pw-${randomUUID()}` };
  expect(
    (
      await page.request.post("/api/v1/auth/register", { data: { ...account, locale: "en", timeZone: "Europe/Prague" } })
    ).status(),
  ).toBe(201);
  expect((await page.request.post("/api/v1/goals", { data: { title: "Spanish A2" } })).status()).toBe(201);

  await reviews.goto();
  await expect(reviews.heading).toHaveText("Reviews");
  await expect(new SiteHeader(page).link("Reviews")).toHaveAttribute("aria-current", "page");
  await expect(reviews.queue.getByRole("heading", { name: "All caught up" })).toBeVisible();
  await expect(reviews.cardList.getByText("No cards yet: add your first one above.")).toBeVisible();

  // An empty answer is refused next to the field.
  await reviews.newCardForm.getByLabel("Question (front)").fill("la casa");
  await reviews.newCardForm.getByRole("button", { name: "Add card" }).click();
  await expect(reviews.newCardForm.getByLabel("Answer (back)")).toHaveAttribute("aria-invalid", "true");

  await reviews.addCard({ front: "la casa", back: "the house", deck: "Spanish", goal: "Spanish A2" });
  await expect(reviews.newCardForm.getByRole("status")).toHaveText("Card added: it is due now.");
  await expect(reviews.cardList.getByRole("heading", { name: "la casa" })).toBeVisible();
  await expect(reviews.cardList.getByRole("link", { name: "Spanish A2" })).toBeVisible();
  await expect(reviews.queue.getByText("1 card due")).toBeVisible();
  await expect(reviews.queue.getByText("la casa", { exact: true })).toBeVisible();
  await expectAccessible(page);

  // The briefing names the card and links here.
  await page.goto("/en/briefing");
  const briefingReviews = page.locator("section", { has: page.locator("#briefing-reviews") });
  await expect(briefingReviews.getByText("1 card to review")).toBeVisible();
  await expect(briefingReviews.getByText("la casa")).toBeVisible();
  await briefingReviews.getByRole("link", { name: "Review now" }).click();
  await expect(page).toHaveURL(/\/en\/reviews$/);

  // Reveal with the button, grade with the keyboard (3 = Good).
  await reviews.queue.getByRole("button", { name: "Show answer" }).click();
  await expect(reviews.queue.getByText("the house")).toBeVisible();
  await expect(reviews.queue.getByRole("button", { name: /Good/ })).toBeVisible();
  await expectAccessible(page);
  await page.keyboard.press("3");
  await expect(reviews.queue.getByRole("status").first()).toContainText("Saved as “Good”");
  await expect(reviews.queue.getByRole("heading", { name: "All caught up" })).toBeVisible();
  await expect(reviews.queue.getByText("Nothing to review")).toBeVisible();
  await expect(reviews.cardList.getByText("reviewed once")).toBeVisible();

  // The API and a reload agree: no card due now (it comes back after its 10-minute learning step).
  const due = await page.request.get("/api/v1/reviews/due");
  expect(await due.json()).toMatchObject({ total: 0, items: [] });
  const history = await (await page.request.get("/api/v1/review-cards")).json();
  expect(history.items).toEqual([
    expect.objectContaining({
      front: "la casa",
      reps: 1,
      state: "learning",
      goal: expect.objectContaining({ title: "Spanish A2" }),
    }),
  ]);
  await reviews.goto();
  await expect(reviews.queue.getByRole("heading", { name: "All caught up" })).toBeVisible();

  // Edit, then delete.
  await reviews.cardList.getByRole("button", { name: "Edit “la casa”" }).click();
  await reviews.cardList.getByLabel("Answer (back)").fill("the home");
  await reviews.cardList.getByRole("button", { name: "Save" }).click();
  await expect(reviews.cardList.getByText("the home")).toBeVisible();
  await reviews.cardList.getByRole("button", { name: "Delete “la casa”" }).click();
  await expect(reviews.cardList.getByText("No cards yet: add your first one above.")).toBeVisible();

  // Hebrew: right to left, and accessible.
  await reviews.goto("he");
  await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
  await expect(reviews.heading).toHaveText("חזרות");
  await expectAccessible(page);
  expect(errors).toEqual([]);
});
