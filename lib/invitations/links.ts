import { createTranslator } from "use-intl/core";
import cs from "../../messages/cs.json";
import en from "../../messages/en.json";
import he from "../../messages/he.json";
import ru from "../../messages/ru.json";
import ua from "../../messages/ua.json";
import { DEFAULT_LOCALE, isLocale, languageTag, type Locale } from "../i18n/locales";
import type { ShareLinksOutput } from "./schema";

/*
 * Share links for an invitation (formats: ../shared/reference/protocols.md, B5). Every value is percent-encoded
 * as UTF-8 with encodeURIComponent, so spaces, `&`, `#`, `?` and non-ASCII text survive any of the apps.
 *
 * - WhatsApp: `https://wa.me/?text=<text>` opens the contact picker; with the invitee's phone
 *   `https://wa.me/<digits, no +>?text=<text>` opens a chat with them. The text carries the link.
 * - Telegram: `https://t.me/share/url?url=<link>&text=<text>` (core.telegram.org/widgets/share); Telegram shows
 *   the text under the link, so the text does not repeat it.
 * - SMS: RFC 5724 `sms:<recipient>?body=<text>` (Android and most others). iOS and iPadOS 8+ expect `&` instead
 *   of `?` (`sms:&body=…`, `sms:+420…&body=…`), so both are given: `sms` and `smsIos`; a client that knows its
 *   platform picks one (`sms:?&body=` is a reported both-ways fallback, not used here).
 * - copy: the link itself.
 */

/** Only the Invite namespace, whose keys every locale has (lib/i18n/messages.test.ts checks it). */
const MESSAGES: Record<Locale, { Invite: typeof en.Invite }> = { en, cs, he, ru, ua };

export interface ShareTarget {
  inviterName: string;
  kind: "task" | "project";
  /** The task's title or the project's name. */
  title: string;
}

/** "Jana invites you to the task “Paint the fence” on Spolu." in the given language (English when unknown). */
export function shareText(locale: string, target: ShareTarget): string {
  const code: Locale = isLocale(locale) ? locale : DEFAULT_LOCALE;
  const t = createTranslator({ locale: languageTag(code), messages: MESSAGES[code], namespace: "Invite" });
  return target.kind === "task"
    ? t("shareTask", { inviter: target.inviterName, title: target.title })
    : t("shareProject", { inviter: target.inviterName, name: target.title });
}

/** The four share links (five with the iOS form of SMS). `phone` is as the schema normalises it: `+?digits`. */
export function shareLinks(input: { url: string; text: string; phone?: string | null }): ShareLinksOutput {
  const { url, text } = input;
  const phone = input.phone ?? "";
  const message = encodeURIComponent(`${text}\n${url}`);
  return {
    whatsapp: `https://wa.me/${phone.replace(/^\+/, "")}?text=${message}`,
    telegram: `https://t.me/share/url?url=${encodeURIComponent(url)}&text=${encodeURIComponent(text)}`,
    sms: `sms:${phone}?body=${message}`,
    smsIos: `sms:${phone}&body=${message}`,
    copy: url,
  };
}
