import { expect, test } from "vitest";
import { LOCALES } from "../i18n/locales";
import { serverMessages } from "../i18n/server-messages";
import { BUILT_IN_TEMPLATES } from "./defaults";

test("three built-in templates, each text in all five languages, none empty, ids and keys unique", () => {
  expect(BUILT_IN_TEMPLATES).toHaveLength(3);
  expect(new Set(BUILT_IN_TEMPLATES.map((template) => template.id)).size).toBe(3);
  expect(new Set(BUILT_IN_TEMPLATES.map((template) => template.key)).size).toBe(3);
  for (const template of BUILT_IN_TEMPLATES) {
    const texts = [template.name, template.description, ...template.tasks.flatMap((task) => [task.title, ...task.subtasks])];
    for (const text of texts) {
      expect(Object.keys(text).sort(), JSON.stringify(text)).toEqual([...LOCALES].sort());
      for (const locale of LOCALES) expect(text[locale].trim(), `${template.key} ${locale}`).not.toBe("");
    }
    // Translated, not copied: the Czech, Hebrew, Russian and Ukrainian names differ from the English one.
    for (const locale of ["cs", "he", "ru", "ua"] as const) expect(template.name[locale]).not.toBe(template.name.en);
  }
});

test("due offsets are within what a user's own template may hold", () => {
  for (const task of BUILT_IN_TEMPLATES.flatMap((template) => template.tasks)) {
    if (!task.dueAfter) continue;
    expect(task.dueAfter.days).toBeGreaterThanOrEqual(0);
    expect(task.dueAfter.hours).toBeLessThan(24);
  }
});

test("the messages name exactly the tasks listed here (BuiltInTemplates in messages/*.json)", () => {
  const texts = serverMessages("en").BuiltInTemplates;
  expect(Object.keys(texts).sort()).toEqual(BUILT_IN_TEMPLATES.map((template) => template.key).sort());
  for (const template of BUILT_IN_TEMPLATES)
    expect(Object.keys(texts[template.key as keyof typeof texts].tasks), template.key).toHaveLength(template.tasks.length);
});
