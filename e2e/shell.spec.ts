import { randomUUID } from "node:crypto";
import { expect, test, type Page } from "./fixtures";
import { expectAccessible } from "./axe";
import { HomePage } from "./pages/home-page";
import { SignInPage } from "./pages/sign-in-page";

/*
 * The frame of every localized page: the header (sections with the current one marked, signed-in state decided
 * by the server; e2e/navigation.spec.ts checks its single row, More and the command palette), Hebrew mirrored, the light, dark and system themes (remembered, with no flash on load), the
 * phone-sized menu, the language taken from the profile, and axe on the shell's pages.
 */

/** The page's background colour as painted (the body's), e.g. `rgb(16, 19, 28)`. */
function background(page: Page): Promise<string> {
  return page.evaluate(() => getComputedStyle(document.body).backgroundColor);
}

const LIGHT_BG = "rgb(247, 248, 252)";
const DARK_BG = "rgb(16, 19, 28)";

/** Registers a user through the API with the page's request context, which signs the browser in too. */
async function signUp(page: Page, fields: { name?: string; locale?: string } = {}) {
  const account = {
    name: "Petra Shell",
    email: `shell-${randomUUID()}@example.com`,
    password: `pw-${randomUUID()}`,
    locale: "en",
    ...fields,
  };
  const response = await page.request.post("/api/v1/auth/register", { data: { ...account, timeZone: "Europe/Prague" } });
  expect(response.status()).toBe(201);
  return account;
}

/** Whether the document is wider than the window (a horizontal scroll bar). */
function scrollsSideways(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
}

test("the server renders the signed-in header: no signed-out flash, the current section marked", async ({ page }) => {
  const home = new HomePage(page);
  const account = await signUp(page);
  // The HTML itself, before any script runs, already has the user's name and the sections.
  const html = await (await page.request.get("/en/settings")).text();
  expect(html).toContain(account.name);
  expect(html).toContain('href="/en/tasks"');
  expect(html).not.toContain('href="/en/sign-in"');

  await home.goto("/en/settings");
  await expect(home.header.link("Settings")).toHaveAttribute("aria-current", "page");
  await expect(home.header.link("Tasks")).not.toHaveAttribute("aria-current");
  await home.goto("/en/settings/profile");
  await expect(home.header.link("Settings")).toHaveAttribute("aria-current", "true");
  await home.header.link("Tasks").click();
  await expect(page).toHaveURL(/\/en\/tasks$/);
  await expect(home.header.link("Tasks")).toHaveAttribute("aria-current", "page");

  // The home page's call to action for a signed-in visitor.
  await home.goto("/en");
  await expect(home.actions.getByRole("link")).toHaveText(["Open my tasks", "Open the board"]);
  await expect(home.actions.getByRole("link", { name: "Open my tasks" })).toHaveAttribute("href", "/en/tasks");
});

test("Hebrew mirrors the header: the brand on the right, the controls on its left", async ({ page }) => {
  const home = new HomePage(page);
  await signUp(page, { locale: "he" });
  await home.goto("/he");
  expect(await home.direction()).toEqual({ lang: "he", dir: "rtl" });
  const brand = (await home.header.brand.boundingBox())!;
  const nav = (await home.header.root.getByRole("navigation", { name: "ניווט ראשי" }).boundingBox())!;
  const theme = (await home.header.root.getByRole("group", { name: "ערכת צבעים" }).boundingBox())!;
  const width = page.viewportSize()!.width;
  // The brand starts the line, which in Hebrew is on the right: it sits in the right half, the rest left of it.
  expect(brand.x).toBeGreaterThan(width / 2);
  expect(nav.x + nav.width).toBeLessThanOrEqual(brand.x);
  expect(theme.x + theme.width).toBeLessThan(nav.x);

  // And English is the other way round.
  await home.goto("/en");
  const enBrand = (await home.header.brand.boundingBox())!;
  const enNav = (await home.header.nav.boundingBox())!;
  expect(enBrand.x + enBrand.width).toBeLessThan(width / 2);
  expect(enNav.x).toBeGreaterThanOrEqual(enBrand.x + enBrand.width);
});

test("the theme: dark when chosen, kept over a reload from the first paint, and back to the system's", async ({ page }) => {
  const home = new HomePage(page);
  await page.emulateMedia({ colorScheme: "light" });
  await home.goto("/en");
  await expect(page.locator("html")).not.toHaveAttribute("data-theme");
  await expect(home.header.theme.getByRole("button", { name: "System" })).toHaveAttribute("aria-pressed", "true");
  expect(await background(page)).toBe(LIGHT_BG);

  await home.header.chooseTheme("Dark");
  await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
  await expect(home.header.theme.getByRole("button", { name: "Dark" })).toHaveAttribute("aria-pressed", "true");
  await expect.poll(() => background(page)).toBe(DARK_BG);

  // Reloaded: the HTML the server sends is dark already, so the page is dark before any script has run.
  await page.reload({ waitUntil: "domcontentloaded" });
  expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe("dark");
  expect(await background(page)).toBe(DARK_BG);
  expect(await (await page.request.get("/en/sign-in")).text()).toMatch(/<html[^>]* data-theme="dark"/);
  // Other pages and languages too.
  await page.goto("/cs/sign-in", { waitUntil: "domcontentloaded" });
  expect(await background(page)).toBe(DARK_BG);

  // An explicit light theme wins over a dark system; "System" follows the system again.
  await page.emulateMedia({ colorScheme: "dark" });
  await home.goto("/en");
  await home.header.chooseTheme("Light");
  await expect.poll(() => background(page)).toBe(LIGHT_BG);
  await home.header.chooseTheme("System");
  await expect(page.locator("html")).not.toHaveAttribute("data-theme");
  await expect.poll(() => background(page)).toBe(DARK_BG);
  await page.reload();
  await expect(page.locator("html")).not.toHaveAttribute("data-theme");
  await expect(home.header.theme.getByRole("button", { name: "System" })).toHaveAttribute("aria-pressed", "true");
});

test("a dark system gets the dark theme when nothing was chosen", async ({ page }) => {
  await page.emulateMedia({ colorScheme: "dark" });
  await page.goto("/en", { waitUntil: "domcontentloaded" });
  expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBeUndefined();
  expect(await background(page)).toBe(DARK_BG);
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("no sideways scrolling; the menu button opens the sections, Escape closes them", async ({ page }) => {
    const home = new HomePage(page);
    await home.goto("/en");
    expect(await scrollsSideways(page)).toBe(false);
    await expect(home.header.menuButton).toBeVisible();
    await expect(home.header.root.getByRole("link", { name: "Sign in" })).toBeHidden();

    const account = await signUp(page);
    for (const path of ["/en", "/he", "/ru/settings", "/en/sign-in"]) {
      await home.goto(path);
      expect(await scrollsSideways(page), path).toBe(false);
    }

    await home.goto("/en");
    await expect(home.header.nav).toBeHidden();
    await expect(home.header.menuButton).toHaveAttribute("aria-expanded", "false");
    await home.header.menuButton.click();
    await expect(home.header.menuButton).toHaveAttribute("aria-expanded", "true");
    await expect(home.header.link("Tasks")).toBeVisible();
    // Every section, without a More button: those under More on a wide screen, and the account's.
    await expect(home.header.more).toBeHidden();
    await expect(home.header.link("Requests")).toBeVisible();
    await expect(home.header.link("Settings")).toBeVisible();
    await expect(home.header.root.getByRole("button", { name: "Sign out" })).toBeVisible();
    await expect(home.header.root).toContainText(account.email);
    expect(await scrollsSideways(page)).toBe(false);

    // Escape closes the menu and leaves the focus on its button.
    await home.header.link("Settings").focus();
    await page.keyboard.press("Escape");
    await expect(home.header.nav).toBeHidden();
    await expect(home.header.menuButton).toBeFocused();
    await expect(home.header.menuButton).toHaveAttribute("aria-expanded", "false");

    // A section followed from the menu opens with the menu closed.
    await home.header.menuButton.click();
    await home.header.link("Settings").click();
    await expect(page).toHaveURL(/\/en\/settings$/);
    await expect(home.header.menuButton).toHaveAttribute("aria-expanded", "false");
    await expect(home.header.nav).toBeHidden();

    // The language list is in the menu too.
    await home.switchLanguage("Čeština");
    await expect(page).toHaveURL(/\/cs\/settings$/);
  });
});

test("the profile's language: / opens /cs for a Czech user, whatever the browser says", async ({ page }) => {
  await signUp(page, { locale: "cs" });
  await page.goto("/");
  await expect(page).toHaveURL(/\/cs$/);
  await expect(page.locator("html")).toHaveAttribute("lang", "cs");

  // Switching the language in the header moves / along with it.
  const home = new HomePage(page);
  await home.switchLanguage("Українська");
  await expect(page).toHaveURL(/\/ua$/);
  await page.goto("/");
  await expect(page).toHaveURL(/\/ua$/);
});

test.describe("accessibility (axe)", () => {
  for (const scheme of ["light", "dark"] as const) {
    test(`home signed out and in, ${scheme}`, async ({ page }) => {
      await page.emulateMedia({ colorScheme: scheme });
      const home = new HomePage(page);
      await home.goto("/en");
      await expectAccessible(page);
      await home.goto("/he");
      await expectAccessible(page);

      await signUp(page);
      await home.goto("/en");
      await expect(home.header.nav).toBeVisible();
      await expectAccessible(page);
      // The open menus are checked too.
      await home.header.account("Petra Shell").click();
      await home.languageSwitcher.getByRole("button").click();
      await expectAccessible(page);
    });
  }

  test("the chosen dark theme on a light system", async ({ page }) => {
    await page.emulateMedia({ colorScheme: "light" });
    const home = new HomePage(page);
    await home.goto("/en");
    await home.header.chooseTheme("Dark");
    await expect.poll(() => background(page)).toBe(DARK_BG);
    await expectAccessible(page);
  });

  test("sign-in, registration (with errors shown) and the settings home", async ({ page }) => {
    const signIn = new SignInPage(page);
    for (const scheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await signIn.goto("en");
      await expectAccessible(page);
      await signIn.goto("en", "?mode=register");
      await signIn.card.getByRole("button", { name: "Create account", exact: true }).click();
      await expect(signIn.alert).toHaveText("Please correct the marked fields.");
      await expectAccessible(page);
    }
    await signUp(page);
    await page.goto("/en/settings");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Settings");
    await expectAccessible(page);
  });
});
