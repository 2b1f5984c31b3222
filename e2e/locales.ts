import { readFileSync } from "node:fs";
import path from "node:path";

/** The two screens the issue-21 flows are walked on: English on a desktop, Hebrew (right to left) on a phone. */
export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

type Messages = typeof import("../messages/en.json");

/** A locale's message catalogue, as the pages read it (messages/<locale>.json). */
export function messagesOf(locale: string): Messages {
  return JSON.parse(readFileSync(path.join(process.cwd(), "messages", `${locale}.json`), "utf8")) as Messages;
}

/** A message's `{name}` arguments filled in (the simple ones the tests look for; no plurals). */
export function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => values[key] ?? whole);
}
