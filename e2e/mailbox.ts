import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect } from "@playwright/test";

/** A message the end-to-end mail server received (e2e/mail-sink.ts). */
export interface Mail {
  to: string[];
  subject: string;
  text: string;
  html: string;
}

function messagesTo(address: string): Mail[] {
  // Set by playwright.config.ts in the runner, inherited by its workers.
  const dir = process.env.SPOLU_E2E_DATA_DIR_MAIL!;
  return readdirSync(dir)
    .sort()
    .map((name) => JSON.parse(readFileSync(path.join(dir, name), "utf8")) as Mail)
    .filter((mail) => mail.to.includes(address.toLowerCase()));
}

/** Waits for a message to `address` whose text matches `pattern`, as Spolu sent it over SMTP; answers the match. */
export async function waitForMail(address: string, pattern: RegExp): Promise<{ mail: Mail; match: RegExpExecArray }> {
  let found: { mail: Mail; match: RegExpExecArray } | undefined;
  await expect
    .poll(
      () => {
        for (const mail of messagesTo(address)) {
          const match = pattern.exec(mail.text);
          if (match) found = { mail, match };
        }
        return Boolean(found);
      },
      { message: `an email to ${address} matching ${pattern}`, timeout: 15_000 },
    )
    .toBe(true);
  return found!;
}
