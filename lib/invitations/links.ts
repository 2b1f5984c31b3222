import { serverTranslator } from "../i18n/server-messages";
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
 * - email: RFC 6068 `mailto:<invitee>?subject=<…>&body=<text and link>`: the invitation by email, sent by the
 *   inviter's own mail program (the server sends no mail to addresses users type: that would make it a spam relay).
 * - copy: the link itself.
 */

export interface ShareTarget {
  inviterName: string;
  kind: "task" | "project" | "family" | "team";
  /** The task's title, or the project's, family workspace's or team's name. */
  title: string;
}

/** "Jana invites you to the task “Paint the fence” on Spolu." in the given language (English when unknown). */
export function shareText(locale: string, target: ShareTarget): string {
  const t = serverTranslator(locale, "Invite");
  switch (target.kind) {
    case "task":
      return t("shareTask", { inviter: target.inviterName, title: target.title });
    case "project":
      return t("shareProject", { inviter: target.inviterName, name: target.title });
    case "family":
      return t("shareFamily", { inviter: target.inviterName, name: target.title });
    case "team":
      return t("shareTeam", { inviter: target.inviterName, name: target.title });
  }
}

/**
 * The share links (WhatsApp, Telegram, SMS in both forms, email, the link to copy). `phone` is as the schema
 * normalises it (`+?digits`); `email` is the invitee's address, if given; `subject` the email's subject line.
 */
export function shareLinks(input: {
  url: string;
  text: string;
  phone?: string | null;
  email?: string | null;
  subject?: string;
}): ShareLinksOutput {
  const { url, text } = input;
  const phone = input.phone ?? "";
  const message = encodeURIComponent(`${text}\n${url}`);
  return {
    whatsapp: `https://wa.me/${phone.replace(/^\+/, "")}?text=${message}`,
    telegram: `https://t.me/share/url?url=${encodeURIComponent(url)}&text=${encodeURIComponent(text)}`,
    sms: `sms:${phone}?body=${message}`,
    smsIos: `sms:${phone}&body=${message}`,
    // RFC 6068: the address is a path (its @ stays), the header fields are percent-encoded.
    email: `mailto:${input.email ? encodeURIComponent(input.email).replace(/%40/g, "@") : ""}?subject=${encodeURIComponent(input.subject ?? text)}&body=${message}`,
    copy: url,
  };
}
