import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { LOCALES } from "./locales";
import { inEveryLocale, SERVER_NAMESPACES, serverMessages, serverTranslator } from "./server-messages";

const ROOT = path.join(import.meta.dirname, "../..");

/** Every .ts and .tsx file under a folder of the repository. */
function sources(folder: string): string[] {
  return readdirSync(path.join(ROOT, folder), { recursive: true, encoding: "utf8" })
    .filter((file) => /\.tsx?$/.test(file))
    .map((file) => path.join(folder, file));
}

describe("serverTranslator", () => {
  test("speaks the user's language, and English for a locale Spolu does not speak", () => {
    expect(serverTranslator("cs", "Notifications")("reminderTitle", { task: "Nájem" })).toBe("Připomínka: Nájem");
    expect(serverTranslator("de", "Notifications")("reminderTitle", { task: "Miete" })).toBe("Reminder: Miete");
    expect(serverTranslator("", "Email")("common.noDueDate")).toBe("No due date");
  });

  test("formats plurals by the language's rules", () => {
    const t = serverTranslator("ru", "Assistant");
    expect(t("briefingOverdue", { count: 1 })).toBe("1 задача просрочена.");
    expect(t("briefingOverdue", { count: 3 })).toBe("3 задачи просрочены.");
    expect(t("briefingOverdue", { count: 5 })).toBe("5 задач просрочено.");
    expect(t("briefingOverdue", { count: 21 })).toBe("21 задача просрочена.");
  });

  test("a part of a namespace", () => {
    expect(serverTranslator("en", "Goals.planner")("reviewTitle", { topics: "verbs" })).toBe("Review: verbs");
    expect(serverMessages("xx")).toBe(serverMessages("en"));
  });
});

test("inEveryLocale gives one text in all five languages", () => {
  const names = inEveryLocale((messages) => messages.DefaultGroups.work);
  expect(Object.keys(names)).toEqual([...LOCALES]);
  expect(names).toMatchObject({ en: "Work", cs: "Práce", ua: "Робота" });
});

test("the server's namespaces are in every catalogue and never handed to the browser", () => {
  for (const locale of LOCALES)
    for (const namespace of SERVER_NAMESPACES) expect(serverMessages(locale)).toHaveProperty(namespace);
  // Pages and the layout give their client components the namespaces they name (components/i18n/client-messages.ts):
  // a server namespace named in app/ or components/ would be on its way to the browser.
  const named = new RegExp(`["'.](${SERVER_NAMESPACES.join("|")})\\b`);
  const offenders = [...sources("app"), ...sources("components")].filter((file) =>
    named.test(readFileSync(path.join(ROOT, file), "utf8")),
  );
  expect(offenders).toEqual([]);
});
