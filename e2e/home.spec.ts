import { expect, test } from "./fixtures";
import { HomePage } from "./pages/home-page";

test("/ redirects to the browser's locale, English here", async ({ page }) => {
  const home = new HomePage(page);
  await home.goto("/");
  await expect(page).toHaveURL(/\/en$/);
  await expect(home.heading).toHaveText("Get things done, together");
  expect(await home.direction()).toEqual({ lang: "en", dir: "ltr" });
});

test.describe("with a Ukrainian browser", () => {
  test.use({ locale: "uk-UA" });

  test("/ redirects to /ua", async ({ page }) => {
    const home = new HomePage(page);
    await home.goto("/");
    await expect(page).toHaveURL(/\/ua$/);
    expect(await home.direction()).toEqual({ lang: "uk", dir: "ltr" });
    // Ukrainian plural rules apply (5 → "many"), which needs the tag uk rather than the code ua.
    await expect(page.locator("footer")).toContainText("Доступно 5 мовами");
  });
});

test("/he renders right to left", async ({ page }) => {
  const home = new HomePage(page);
  await home.goto("/he");
  expect(await home.direction()).toEqual({ lang: "he", dir: "rtl" });
  await expect(home.heading).toHaveText("עושים את זה ביחד");
});

test("the language switcher moves to /cs with Czech text", async ({ page }) => {
  const home = new HomePage(page);
  await home.goto("/en");
  await home.switchLanguage("Čeština");
  await expect(page).toHaveURL(/\/cs$/);
  await expect(home.heading).toHaveText("Zvládněte to spolu");
  await expect(page.locator("html")).toHaveAttribute("lang", "cs");
  await expect(home.languageSwitcher.locator("[aria-current]")).toHaveText("Čeština");
});

test("switching from Hebrew to Ukrainian turns the page left to right", async ({ page }) => {
  const home = new HomePage(page);
  await home.goto("/he");
  await home.switchLanguage("Українська");
  await expect(page).toHaveURL(/\/ua$/);
  await expect(home.heading).toHaveText("Робіть справи разом");
  await expect(page.locator("html")).toHaveAttribute("dir", "ltr");
  await expect(page.locator("html")).toHaveAttribute("lang", "uk");
});

test('the first action is "Get started", which opens the sign-up form', async ({ page }) => {
  const home = new HomePage(page);
  await home.goto("/en");
  const first = home.actions.getByRole("link").first();
  await expect(first).toHaveText("Get started");
  await first.click();
  await expect(page).toHaveURL(/\/en\/sign-in\?mode=register$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Create your Spolu account");
});

test.describe("on a phone (390×844)", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  for (const [locale, label] of [
    ["en", "Get started"],
    ["cs", "Začít"],
    ["he", "להתחלה"],
    ["ru", "Начать"],
    ["ua", "Почати"],
  ] as const) {
    test(`/${locale}: a sign-up button is on the first screen without opening the menu`, async ({ page }) => {
      const home = new HomePage(page);
      await home.goto(`/${locale}`);
      const start = home.actions.getByRole("link", { name: label });
      await expect(home.actions.getByRole("link").first()).toHaveText(label);
      await expect(start).toBeVisible();
      await expect(start).toBeInViewport();
      await start.click();
      await expect(page).toHaveURL(new RegExp(`/${locale}/sign-in\\?mode=register$`));
    });
  }
});

test("the home page links to the API documentation", async ({ page }) => {
  const home = new HomePage(page);
  await home.goto("/ru");
  await home.docsLink.click();
  await expect(page).toHaveURL(/\/docs$/);
});

test("an unknown page under a locale answers a localized 404", async ({ page }) => {
  const response = await page.goto("/cs/no-such-page");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Stránka nenalezena");
});

test("API paths and unlocalized pages are not redirected to a locale", async ({ request }) => {
  for (const path of ["/healthz", "/api/v1/healthz", "/openapi.json", "/docs", "/invite/some-token"]) {
    const response = await request.get(path, { maxRedirects: 0 });
    expect(response.status(), path).not.toBe(307);
    expect(response.headers().location, path).toBeUndefined();
  }
});

for (const locale of ["en", "cs", "he", "ru", "ua"]) {
  test(`/${locale} renders without errors in the console`, async ({ page }) => {
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    page.on("console", (message) => {
      if (message.type() === "error") errors.push(message.text());
    });
    const home = new HomePage(page);
    await home.goto(`/${locale}`);
    await expect(home.heading).toBeVisible();
    await page.waitForLoadState("networkidle");
    expect(errors).toEqual([]);
  });
}

test("a page sends the browser the messages its shell and its own components read, not the whole catalogue", async ({
  request,
}) => {
  const html = await (await request.get("/en")).text();
  // The header's menus read theirs in the browser (in the page's payload, a JSON string inside a script)…
  expect(html).toContain('\\"Nav\\":{');
  // …other pages' are not: the task page's live status and the goal page's lead.
  expect(html).not.toContain("Connecting for live updates…");
  expect(html).not.toContain("Set goals, follow your progress and let a study plan break them into sessions.");
  // The whole catalogue is some 100 KB of JSON in English; the home page now weighs less than half of that.
  expect(html.length).toBeLessThan(60_000);
});
