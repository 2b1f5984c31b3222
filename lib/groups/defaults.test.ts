import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { LOCALES } from "../i18n/locales";
import { DEFAULT_GROUPS } from "./defaults";

const MIGRATION = path.join(import.meta.dirname, "../../db/migrations/0001_tasks.sql");

/** The backfill statement of the migration, and the (key, names, position) rows it inserts. */
function backfillRows() {
  const statements = readFileSync(MIGRATION, "utf8").split("--> statement-breakpoint");
  const backfill = statements.filter((statement) => /INSERT INTO "task_groups"/.test(statement));
  expect(backfill).toHaveLength(1);
  const rows = [...backfill[0]!.matchAll(/\(\s*'((?:[^']|'')*)',\s*'((?:[^']|'')*)'::jsonb,\s*(\d+)\s*\)/g)];
  return rows.map(([, key, names, position]) => ({
    key: key!.replaceAll("''", "'"),
    names: JSON.parse(names!.replaceAll("''", "'")) as unknown,
    position: Number(position),
  }));
}

describe("DEFAULT_GROUPS", () => {
  test("are the eight groups of the spec, each named in every language, no two alike in one language", () => {
    expect(DEFAULT_GROUPS.map((group) => group.key)).toEqual([
      "personal",
      "work",
      "family",
      "home",
      "shopping",
      "health",
      "study",
      "finance",
    ]);
    for (const group of DEFAULT_GROUPS) {
      expect(Object.keys(group.names).sort()).toEqual([...LOCALES].sort());
      for (const name of Object.values(group.names)) expect(name).toMatch(/^\S(.{0,98}\S)?$/);
    }
    for (const locale of LOCALES) {
      const names = DEFAULT_GROUPS.map((group) => group.names[locale]);
      expect(new Set(names).size, locale).toBe(names.length);
    }
    expect(DEFAULT_GROUPS.map((group) => group.names.cs)).toEqual([
      "Osobní",
      "Práce",
      "Rodina",
      "Domácnost",
      "Nákupy",
      "Zdraví",
      "Studium",
      "Finance",
    ]);
  });

  test("the migration backfills existing users with exactly these groups, keys, names and positions", () => {
    expect(backfillRows()).toEqual(DEFAULT_GROUPS.map(({ key, names }, position) => ({ key, names, position })));
  });
});
