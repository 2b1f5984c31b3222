import { DEFAULT_LOCALE, isLocale, isRtl, languageTag, type Locale } from "../i18n/locales";
import { serverTranslator, type ServerTranslator } from "../i18n/server-messages";

/**
 * The localized emails the service sends to its users, each with the values its template needs (times as ISO
 * strings; the template formats them in the user's locale and time zone).
 */
export type UserEmail =
  | { template: "reminder"; params: { taskId: string; taskTitle: string; dueAt: string; minutesBefore: number | null } }
  | { template: "daily_summary"; params: { date: string; dueToday: EmailTask[]; overdue: EmailTask[] } }
  | {
      template: "weekly_report";
      params: {
        /** Monday of the reported week and the Sunday it ends on (local dates). */
        weekStart: string;
        weekEnd: string;
        completed: number;
        overdue: number;
        created: number;
        open: number;
        /** The assistant's words on the week (lib/assistant/weekly.ts); null while the `ai` module is off. */
        narrative: string | null;
        /** The report's page, `/<locale>/reports/<weekStart>`, linked under APP_URL. */
        reportPath: string;
      };
    }
  | { template: "notification"; params: { title: string; body: string; url?: string } }
  /** A link to choose a new password (lib/accounts/password-reset.ts): `token` goes into the link, once. */
  | { template: "password_reset"; params: { token: string; email: string } }
  /** A link that confirms the account's address (lib/accounts/email-verification.ts). */
  | { template: "email_verification"; params: { token: string; email: string } }
  /** Someone reminds the task's assignees of it (POST /email/reminder), with an optional note of their own. */
  | {
      template: "personal_reminder";
      params: { taskId: string; taskTitle: string; dueAt: string | null; senderName: string; message: string | null };
    };

export interface EmailTask {
  id: string;
  title: string;
  dueAt: string | null;
}

/*
 * The emails Spolu sends its users, in their language: a subject, a plain-text body and a simple HTML body for each
 * `UserEmail` template. Its words are the Email namespace of messages/<locale>.json (ICU messages, plurals included,
 * checked with the pages' messages by lib/i18n/messages.test.ts); dates and times are formatted with Intl in the
 * recipient's locale and time zone. Every value that comes from a user (titles, names, messages) is escaped once,
 * where the HTML is written (`toHtml`); the text body carries it as is. Hebrew mail is written right to left.
 *
 * Links go to the task's page, `<APP_URL>/<locale>/tasks/<id>`; without APP_URL there is no absolute address to
 * give, so the email has no link.
 */

/** Whom an email is for: their name, and the locale and time zone of their profile. */
export interface Recipient {
  name: string;
  locale: string;
  timeZone: string;
}

export interface RenderedEmail {
  subject: string;
  text: string;
  html: string;
}

export interface RenderOptions {
  /** The public address of the app (config APP_URL); without it the email carries no links. */
  appUrl?: string;
}

/** One piece of an email's body, written once as text and once as HTML. */
type Block =
  | { kind: "paragraph"; text: string }
  | { kind: "heading"; text: string }
  /** A message someone wrote, kept with its line breaks. */
  | { kind: "quote"; text: string }
  | { kind: "list"; items: { text: string; href: string | null }[] }
  | { kind: "link"; text: string; href: string };

type Translator = ServerTranslator<"Email">;

/** The user's time zone, or UTC when it is not one Intl knows. */
function safeTimeZone(timeZone: string): string {
  try {
    new Intl.DateTimeFormat("en", { timeZone });
    return timeZone;
  } catch {
    return "UTC";
  }
}

/** Formats dates and times for one recipient: their language, their time zone. */
class Dates {
  constructor(
    private readonly tag: string,
    private readonly timeZone: string,
  ) {}

  /** A moment (ISO 8601), with its date and time, in the recipient's zone. */
  dateTime(iso: string): string {
    return this.format(iso, { dateStyle: "medium", timeStyle: "short", timeZone: this.timeZone });
  }

  /** A moment's time of day only, in the recipient's zone. */
  time(iso: string): string {
    return this.format(iso, { timeStyle: "short", timeZone: this.timeZone });
  }

  /** A calendar date (`YYYY-MM-DD`, already the recipient's local date), or a moment's date in their zone. */
  day(value: string): string {
    const calendarDate = /^\d{4}-\d{2}-\d{2}$/.test(value);
    return this.format(calendarDate ? `${value}T12:00:00Z` : value, {
      dateStyle: "long",
      timeZone: calendarDate ? "UTC" : this.timeZone,
    });
  }

  /** "in 2 hours", "za 2 hodiny"...: the largest whole unit of a number of minutes. */
  minutesAhead(minutes: number): string {
    const relative = new Intl.RelativeTimeFormat(this.tag, { numeric: "always" });
    if (minutes % 1440 === 0) return relative.format(minutes / 1440, "day");
    if (minutes % 60 === 0) return relative.format(minutes / 60, "hour");
    return relative.format(minutes, "minute");
  }

  private format(value: string, options: Intl.DateTimeFormatOptions): string {
    const date = new Date(value);
    return Number.isNaN(date.getTime()) ? value : new Intl.DateTimeFormat(this.tag, options).format(date);
  }
}

function taskUrl(appUrl: string | undefined, locale: Locale, taskId: string): string | null {
  return appUrl ? `${appUrl.replace(/\/+$/, "")}/${locale}/tasks/${encodeURIComponent(taskId)}` : null;
}

/** An http(s) address as given; a path (`/…`) under APP_URL; anything else (or a path without APP_URL): no link. */
function absoluteUrl(appUrl: string | undefined, url: string | undefined): string | null {
  if (!url) return null;
  if (/^https?:\/\//i.test(url)) return url;
  if (url.startsWith("/") && !url.startsWith("//") && appUrl) return `${appUrl.replace(/\/+$/, "")}${url}`;
  return null;
}

/** Subjects are one line: a title with a line break in it must not start a new header. */
const oneLine = (text: string) => text.replace(/\s*[\r\n]+\s*/g, " ").trim();

interface Context {
  t: Translator;
  dates: Dates;
  locale: Locale;
  appUrl: string | undefined;
}

/** The page an emailed link opens, the token in the fragment (never sent to a server, never in a Referer). */
function accountLinkPath(locale: Locale, page: "reset-password" | "verify-email", token: string): string {
  return `/${locale}/${page}#token=${token}`;
}

function body(email: UserEmail, context: Context): { subject: string; blocks: Block[]; footer?: string } {
  const { t, dates, locale, appUrl } = context;
  const taskLink = (taskId: string): Block[] => {
    const href = taskUrl(appUrl, locale, taskId);
    return href ? [{ kind: "link", text: t("common.openTask"), href }] : [];
  };
  const taskItem = (task: EmailTask, when: (iso: string) => string): { text: string; href: string | null } => ({
    text: t("common.item", { title: task.title, due: task.dueAt ? when(task.dueAt) : t("common.noDueDate") }),
    href: taskUrl(appUrl, locale, task.id),
  });

  switch (email.template) {
    case "reminder": {
      const { taskId, taskTitle: title, dueAt, minutesBefore } = email.params;
      const due = dates.dateTime(dueAt);
      const line = minutesBefore
        ? t("reminder.dueIn", { title, due, when: dates.minutesAhead(minutesBefore) })
        : t("reminder.dueNow", { title, due });
      return { subject: t("reminder.subject", { title }), blocks: [{ kind: "paragraph", text: line }, ...taskLink(taskId)] };
    }
    case "personal_reminder": {
      const { taskId, taskTitle: title, dueAt, senderName: sender, message } = email.params;
      const blocks: Block[] = [
        { kind: "paragraph", text: t("personalReminder.intro", { sender, title }) },
        { kind: "paragraph", text: dueAt ? t("common.due", { due: dates.dateTime(dueAt) }) : t("common.noDueDate") },
      ];
      if (message)
        blocks.push({ kind: "paragraph", text: t("personalReminder.message", { sender }) }, { kind: "quote", text: message });
      return { subject: t("personalReminder.subject", { sender, title }), blocks: [...blocks, ...taskLink(taskId)] };
    }
    case "daily_summary": {
      const { date, dueToday, overdue } = email.params;
      const day = dates.day(date);
      const blocks: Block[] = [{ kind: "paragraph", text: t("dailySummary.intro", { date: day }) }];
      if (dueToday.length) {
        blocks.push(
          { kind: "heading", text: t("dailySummary.dueToday", { count: dueToday.length }) },
          { kind: "list", items: dueToday.map((task) => taskItem(task, (iso) => dates.time(iso))) },
        );
      }
      if (overdue.length) {
        blocks.push(
          { kind: "heading", text: t("dailySummary.overdue", { count: overdue.length }) },
          { kind: "list", items: overdue.map((task) => taskItem(task, (iso) => dates.dateTime(iso))) },
        );
      }
      if (!dueToday.length && !overdue.length) blocks.push({ kind: "paragraph", text: t("dailySummary.nothing") });
      return { subject: t("dailySummary.subject", { date: day }), blocks };
    }
    case "weekly_report": {
      const { weekStart, weekEnd, completed, overdue, created, open, narrative, reportPath } = email.params;
      const items = [
        t("weeklyReport.completed", { count: completed }),
        t("weeklyReport.created", { count: created }),
        t("weeklyReport.overdue", { count: overdue }),
        t("weeklyReport.open", { count: open }),
      ];
      // The narrative is the assistant's text (an AI endpoint's when one is configured): its paragraphs as they are.
      const words = (narrative ?? "")
        .split(/\n\s*\n/)
        .map((paragraph) => paragraph.trim())
        .filter(Boolean);
      const report = appUrl
        ? [{ kind: "link" as const, text: t("weeklyReport.openReport"), href: `${appUrl.replace(/\/+$/, "")}${reportPath}` }]
        : [];
      return {
        subject: t("weeklyReport.subject", { weekStart: dates.day(weekStart), weekEnd: dates.day(weekEnd) }),
        blocks: [
          { kind: "paragraph", text: t("weeklyReport.intro", { count: completed }) },
          { kind: "list", items: items.map((text) => ({ text, href: null })) },
          ...(words.length
            ? [
                { kind: "heading" as const, text: t("weeklyReport.assistant") },
                ...words.map((text) => ({ kind: "paragraph" as const, text })),
              ]
            : []),
          ...report,
        ],
      };
    }
    case "password_reset":
    case "email_verification": {
      const { token, email: address } = email.params;
      const [keys, page] =
        email.template === "password_reset"
          ? (["passwordReset", "reset-password"] as const)
          : (["verifyEmail", "verify-email"] as const);
      const path = accountLinkPath(locale, page, token);
      const action: Block = appUrl
        ? { kind: "link", text: t(`${keys}.action`), href: `${appUrl.replace(/\/+$/, "")}${path}` }
        : { kind: "paragraph", text: t(`${keys}.pathOnly`, { path }) };
      return {
        subject: t(`${keys}.subject`),
        blocks: [
          { kind: "paragraph", text: t(`${keys}.intro`, { email: address }) },
          action,
          { kind: "paragraph", text: t(`${keys}.expiry`) },
        ],
        footer: t(`${keys}.footer`),
      };
    }
    case "notification": {
      const { title, body: text, url } = email.params;
      const href = absoluteUrl(appUrl, url);
      const blocks: Block[] = text ? [{ kind: "quote", text }] : [];
      if (href) blocks.push({ kind: "link", text: t("common.open"), href });
      return { subject: title, blocks };
    }
  }
}

function toText(greeting: string, blocks: Block[], footer: string): string {
  const parts = blocks.map((block) => {
    switch (block.kind) {
      case "paragraph":
      case "heading":
        return block.text;
      case "quote":
        return block.text
          .split(/\r?\n/)
          .map((line) => `> ${line}`)
          .join("\n");
      case "list":
        return block.items.map((item) => `- ${item.text}${item.href ? `\n  ${item.href}` : ""}`).join("\n");
      case "link":
        return `${block.text}: ${block.href}`;
    }
  });
  return [greeting, ...parts, "--", footer].join("\n\n") + "\n";
}

const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Text as HTML: every character that means something in markup (or in an attribute) escaped. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => HTML_ESCAPES[character]!);
}

const multiline = (text: string) => escapeHtml(text).replace(/\r?\n/g, "<br>");

function toHtml(subject: string, greeting: string, blocks: Block[], footer: string, locale: Locale): string {
  const dir = isRtl(locale) ? "rtl" : "ltr";
  const link = (text: string, href: string) => `<a href="${escapeHtml(href)}" style="color:#2563eb">${escapeHtml(text)}</a>`;
  const parts = blocks.map((block) => {
    switch (block.kind) {
      case "paragraph":
        return `<p>${multiline(block.text)}</p>`;
      case "heading":
        return `<h2 style="font-size:16px;margin:20px 0 8px">${escapeHtml(block.text)}</h2>`;
      case "quote":
        return `<blockquote style="margin:0 0 16px;padding:8px 12px;border-inline-start:3px solid #cbd5e1;color:#334155">${multiline(block.text)}</blockquote>`;
      case "list":
        return `<ul>${block.items.map((item) => `<li>${item.href ? link(item.text, item.href) : escapeHtml(item.text)}</li>`).join("")}</ul>`;
      case "link":
        return `<p>${link(block.text, block.href)}</p>`;
    }
  });
  return [
    "<!doctype html>",
    `<html lang="${languageTag(locale)}" dir="${dir}">`,
    `<head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(subject)}</title></head>`,
    `<body dir="${dir}" style="font-family:system-ui,-apple-system,'Segoe UI',Roboto,Arial,sans-serif;font-size:15px;line-height:1.5;color:#0f172a">`,
    `<p>${escapeHtml(greeting)}</p>`,
    ...parts,
    `<hr style="border:none;border-top:1px solid #e2e8f0;margin:24px 0 12px"><p style="font-size:12px;color:#64748b">${escapeHtml(footer)}</p>`,
    "</body>",
    "</html>",
  ].join("\n");
}

/**
 * Renders one email for one recipient: in their locale (English when it is not one Spolu speaks), with dates and
 * times in their time zone (UTC when it is not a valid one). Pure: the same input gives the same email.
 */
export function renderEmail(email: UserEmail, recipient: Recipient, options: RenderOptions = {}): RenderedEmail {
  const locale: Locale = isLocale(recipient.locale) ? recipient.locale : DEFAULT_LOCALE;
  const timeZone = safeTimeZone(recipient.timeZone);
  const t = serverTranslator(locale, "Email", { timeZone });
  const rendered = body(email, { t, dates: new Dates(languageTag(locale), timeZone), locale, appUrl: options.appUrl });
  const { subject, blocks } = rendered;
  const greeting = t("common.greeting", { name: recipient.name });
  const footer = rendered.footer ?? t("common.footer");
  const line = oneLine(subject);
  return { subject: line, text: toText(greeting, blocks, footer), html: toHtml(line, greeting, blocks, footer, locale) };
}
