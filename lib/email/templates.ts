import { createTranslator } from "use-intl/core";
import { DEFAULT_LOCALE, isLocale, isRtl, languageTag, type Locale } from "../i18n/locales";

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
 * `UserEmail` template. Messages are ICU strings (plurals included); dates and times are formatted with Intl in the
 * recipient's locale and time zone. Every value that comes from a user (titles, names, messages) is escaped once,
 * where the HTML is written (`toHtml`); the text body carries it as is. Hebrew mail is written right to left.
 *
 * Links go to the task's page, `<APP_URL>/<locale>/tasks/<id>`; without APP_URL there is no absolute address to
 * give, so the email has no link.
 */

const en = {
  common: {
    greeting: "Hello {name},",
    openTask: "Open the task",
    open: "Open in Spolu",
    due: "Due: {due}",
    noDueDate: "No due date",
    item: "{title} – {due}",
    footer: "You receive this email because you use Spolu. You choose which emails you get in the settings.",
  },
  reminder: {
    subject: "Reminder: {title}",
    dueIn: "“{title}” is due {when} ({due}).",
    dueNow: "“{title}” is due now ({due}).",
  },
  personalReminder: {
    subject: "{sender} reminds you of “{title}”",
    intro: "{sender} reminds you of the task “{title}”.",
    message: "{sender} writes:",
  },
  dailySummary: {
    subject: "Your tasks for {date}",
    intro: "Your day, {date}:",
    dueToday: "Due today ({count, number})",
    overdue: "Overdue ({count, number})",
    nothing: "Nothing is due today and nothing is overdue.",
  },
  weeklyReport: {
    subject: "Your week in Spolu: {weekStart} – {weekEnd}",
    intro: "Last week you completed {count, plural, =0 {no tasks} one {# task} other {# tasks}}.",
    assistant: "Your assistant on the week:",
    openReport: "Open the report",
    completed: "Completed: {count, number}",
    created: "Created: {count, number}",
    overdue: "Overdue: {count, number}",
    open: "Still open: {count, number}",
  },
  passwordReset: {
    subject: "Reset your Spolu password",
    intro: "Someone, hopefully you, asked to reset the password of your Spolu account ({email}).",
    action: "Choose a new password",
    expiry: "The link works once, within an hour. Opening it and saving a new password signs you out everywhere else.",
    pathOnly: "Open this address in Spolu to choose a new password: {path}",
    footer: "If you did not ask for this, ignore this email: your password stays as it is.",
  },
  verifyEmail: {
    subject: "Confirm your email address for Spolu",
    intro: "Please confirm that {email} is your address, so that we can reach you and you can always get back into your account.",
    action: "Confirm my email address",
    expiry: "The link works once, within 48 hours.",
    pathOnly: "Open this address in Spolu to confirm it: {path}",
    footer: "If you did not create a Spolu account, ignore this email.",
  },
};

type EmailMessages = typeof en;

const cs: EmailMessages = {
  common: {
    greeting: "Dobrý den, {name},",
    openTask: "Otevřít úkol",
    open: "Otevřít ve Spolu",
    due: "Termín: {due}",
    noDueDate: "Bez termínu",
    item: "{title} – {due}",
    footer: "Tento e-mail dostáváte, protože používáte Spolu. Které e-maily chcete dostávat, zvolíte v nastavení.",
  },
  reminder: {
    subject: "Připomínka: {title}",
    dueIn: "Úkol „{title}“ má termín {when} ({due}).",
    dueNow: "Úkol „{title}“ má termín právě teď ({due}).",
  },
  personalReminder: {
    subject: "{sender} vám připomíná „{title}“",
    intro: "{sender} vám připomíná úkol „{title}“.",
    message: "{sender} píše:",
  },
  dailySummary: {
    subject: "Vaše úkoly na {date}",
    intro: "Váš den, {date}:",
    dueToday: "Dnes k termínu ({count, number})",
    overdue: "Po termínu ({count, number})",
    nothing: "Dnes nemáte nic k termínu a nic není po termínu.",
  },
  weeklyReport: {
    subject: "Váš týden ve Spolu: {weekStart} – {weekEnd}",
    intro:
      "{count, plural, =0 {Minulý týden jste nedokončili žádný úkol.} one {Minulý týden jste dokončili # úkol.} few {Minulý týden jste dokončili # úkoly.} many {Minulý týden jste dokončili # úkolu.} other {Minulý týden jste dokončili # úkolů.}}",
    assistant: "Váš asistent o uplynulém týdnu:",
    openReport: "Otevřít přehled",
    completed: "Dokončeno: {count, number}",
    created: "Vytvořeno: {count, number}",
    overdue: "Po termínu: {count, number}",
    open: "Stále otevřeno: {count, number}",
  },
  passwordReset: {
    subject: "Obnovení hesla do Spolu",
    intro: "Někdo, snad vy, požádal o obnovení hesla k vašemu účtu Spolu ({email}).",
    action: "Zvolit nové heslo",
    expiry:
      "Odkaz funguje jednou a jen hodinu. Když ho otevřete a uložíte nové heslo, odhlásíte se na všech ostatních zařízeních.",
    pathOnly: "Nové heslo zvolíte na této adrese Spolu: {path}",
    footer: "Pokud jste o nic nežádali, tento e-mail ignorujte: heslo zůstává stejné.",
  },
  verifyEmail: {
    subject: "Potvrďte svou e-mailovou adresu pro Spolu",
    intro: "Potvrďte prosím, že {email} je vaše adresa, abychom vás zastihli a vy se do účtu vždy dostali.",
    action: "Potvrdit e-mailovou adresu",
    expiry: "Odkaz funguje jednou a jen 48 hodin.",
    pathOnly: "Adresu potvrdíte na této adrese Spolu: {path}",
    footer: "Pokud jste si účet Spolu nezakládali, tento e-mail ignorujte.",
  },
};

const he: EmailMessages = {
  common: {
    greeting: "שלום {name},",
    openTask: "לפתיחת המשימה",
    open: "לפתיחה ב־Spolu",
    due: "מועד: {due}",
    noDueDate: "ללא מועד",
    item: "{title} – {due}",
    footer: "הודעה זו נשלחה אליך כי יש לך חשבון ב־Spolu. אפשר לבחור אילו הודעות לקבל בהגדרות.",
  },
  reminder: {
    subject: "תזכורת: {title}",
    dueIn: "מועד המשימה „{title}” {when} ({due}).",
    dueNow: "מועד המשימה „{title}” הגיע ({due}).",
  },
  personalReminder: {
    subject: "תזכורת מאת {sender}: „{title}”",
    intro: "קיבלת תזכורת מאת {sender} על המשימה „{title}”.",
    message: "ההודעה מאת {sender}:",
  },
  dailySummary: {
    subject: "המשימות שלך ל־{date}",
    intro: "היום שלך, {date}:",
    dueToday: "להיום ({count, number})",
    overdue: "באיחור ({count, number})",
    nothing: "אין היום משימות שמועדן הגיע ואין משימות באיחור.",
  },
  weeklyReport: {
    subject: "השבוע שלך ב־Spolu: {weekStart} – {weekEnd}",
    intro:
      "בשבוע שעבר {count, plural, =0 {לא הושלמו משימות} one {הושלמה משימה אחת} two {הושלמו שתי משימות} other {הושלמו # משימות}}.",
    assistant: "העוזר שלך על השבוע שעבר:",
    openReport: "לפתיחת הדוח",
    completed: "הושלמו: {count, number}",
    created: "נוצרו: {count, number}",
    overdue: "באיחור: {count, number}",
    open: "עדיין פתוחות: {count, number}",
  },
  passwordReset: {
    subject: "איפוס הסיסמה ל־Spolu",
    intro: "התקבלה בקשה לאיפוס הסיסמה של חשבון Spolu שלך ({email}).",
    action: "לבחירת סיסמה חדשה",
    expiry: "הקישור עובד פעם אחת בלבד, במשך שעה. שמירת סיסמה חדשה תנתק אותך מכל שאר המכשירים.",
    pathOnly: "לבחירת סיסמה חדשה יש לפתוח את הכתובת הזו ב־Spolu: {path}",
    footer: "אם לא ביקשת זאת, אפשר להתעלם מההודעה: הסיסמה שלך לא תשתנה.",
  },
  verifyEmail: {
    subject: "אימות כתובת הדוא״ל שלך ב־Spolu",
    intro: "נא לאשר ש־{email} היא הכתובת שלך, כדי שנוכל ליצור איתך קשר ושתמיד אפשר יהיה לחזור לחשבון.",
    action: "לאימות כתובת הדוא״ל",
    expiry: "הקישור עובד פעם אחת בלבד, במשך 48 שעות.",
    pathOnly: "לאימות יש לפתוח את הכתובת הזו ב־Spolu: {path}",
    footer: "אם לא פתחת חשבון ב־Spolu, אפשר להתעלם מההודעה.",
  },
};

const ru: EmailMessages = {
  common: {
    greeting: "Здравствуйте, {name}!",
    openTask: "Открыть задачу",
    open: "Открыть в Spolu",
    due: "Срок: {due}",
    noDueDate: "Без срока",
    item: "{title} – {due}",
    footer: "Вы получили это письмо, потому что пользуетесь Spolu. Какие письма получать, можно выбрать в настройках.",
  },
  reminder: {
    subject: "Напоминание: {title}",
    dueIn: "Срок задачи «{title}» — {when} ({due}).",
    dueNow: "Срок задачи «{title}» наступил ({due}).",
  },
  personalReminder: {
    subject: "{sender} напоминает о задаче «{title}»",
    intro: "{sender} напоминает вам о задаче «{title}».",
    message: "{sender} пишет:",
  },
  dailySummary: {
    subject: "Ваши задачи на {date}",
    intro: "Ваш день, {date}:",
    dueToday: "Срок сегодня ({count, number})",
    overdue: "Просрочено ({count, number})",
    nothing: "Сегодня сроков нет, и просроченных задач тоже нет.",
  },
  weeklyReport: {
    subject: "Ваша неделя в Spolu: {weekStart} – {weekEnd}",
    intro:
      "{count, plural, =0 {На прошлой неделе вы не выполнили ни одной задачи.} one {На прошлой неделе вы выполнили # задачу.} few {На прошлой неделе вы выполнили # задачи.} many {На прошлой неделе вы выполнили # задач.} other {На прошлой неделе вы выполнили # задачи.}}",
    assistant: "Ваш ассистент о прошедшей неделе:",
    openReport: "Открыть отчёт",
    completed: "Выполнено: {count, number}",
    created: "Создано: {count, number}",
    overdue: "Просрочено: {count, number}",
    open: "Ещё открыто: {count, number}",
  },
  passwordReset: {
    subject: "Сброс пароля Spolu",
    intro: "Кто-то, надеемся, вы, попросил сбросить пароль вашей учётной записи Spolu ({email}).",
    action: "Выбрать новый пароль",
    expiry:
      "Ссылка работает один раз и только час. Если открыть её и сохранить новый пароль, вы выйдете на всех остальных устройствах.",
    pathOnly: "Чтобы выбрать новый пароль, откройте этот адрес в Spolu: {path}",
    footer: "Если вы ничего не просили, просто проигнорируйте это письмо: пароль останется прежним.",
  },
  verifyEmail: {
    subject: "Подтвердите адрес электронной почты для Spolu",
    intro:
      "Подтвердите, пожалуйста, что {email} — ваш адрес: так мы сможем с вами связаться, а вы всегда вернётесь в свою учётную запись.",
    action: "Подтвердить адрес",
    expiry: "Ссылка работает один раз и только 48 часов.",
    pathOnly: "Чтобы подтвердить адрес, откройте этот адрес в Spolu: {path}",
    footer: "Если вы не создавали учётную запись Spolu, проигнорируйте это письмо.",
  },
};

const ua: EmailMessages = {
  common: {
    greeting: "Вітаємо, {name}!",
    openTask: "Відкрити завдання",
    open: "Відкрити в Spolu",
    due: "Термін: {due}",
    noDueDate: "Без терміну",
    item: "{title} – {due}",
    footer: "Ви отримали цей лист, бо користуєтеся Spolu. Які листи отримувати, можна вибрати в налаштуваннях.",
  },
  reminder: {
    subject: "Нагадування: {title}",
    dueIn: "Термін завдання «{title}» — {when} ({due}).",
    dueNow: "Термін завдання «{title}» настав ({due}).",
  },
  personalReminder: {
    subject: "{sender} нагадує про завдання «{title}»",
    intro: "{sender} нагадує вам про завдання «{title}».",
    message: "{sender} пише:",
  },
  dailySummary: {
    subject: "Ваші завдання на {date}",
    intro: "Ваш день, {date}:",
    dueToday: "Термін сьогодні ({count, number})",
    overdue: "Прострочено ({count, number})",
    nothing: "Сьогодні термінів немає, і прострочених завдань теж немає.",
  },
  weeklyReport: {
    subject: "Ваш тиждень у Spolu: {weekStart} – {weekEnd}",
    intro:
      "{count, plural, =0 {Минулого тижня ви не виконали жодного завдання.} one {Минулого тижня ви виконали # завдання.} few {Минулого тижня ви виконали # завдання.} many {Минулого тижня ви виконали # завдань.} other {Минулого тижня ви виконали # завдання.}}",
    assistant: "Ваш асистент про минулий тиждень:",
    openReport: "Відкрити звіт",
    completed: "Виконано: {count, number}",
    created: "Створено: {count, number}",
    overdue: "Прострочено: {count, number}",
    open: "Ще відкрито: {count, number}",
  },
  passwordReset: {
    subject: "Скидання пароля Spolu",
    intro: "Хтось, сподіваємося, ви, попросив скинути пароль вашого облікового запису Spolu ({email}).",
    action: "Вибрати новий пароль",
    expiry:
      "Посилання працює один раз і лише годину. Якщо відкрити його і зберегти новий пароль, ви вийдете на всіх інших пристроях.",
    pathOnly: "Щоб вибрати новий пароль, відкрийте цю адресу в Spolu: {path}",
    footer: "Якщо ви нічого не просили, просто проігноруйте цей лист: пароль залишиться тим самим.",
  },
  verifyEmail: {
    subject: "Підтвердьте адресу електронної пошти для Spolu",
    intro:
      "Підтвердьте, будь ласка, що {email} — ваша адреса: так ми зможемо з вами зв’язатися, а ви завжди повернетеся до свого облікового запису.",
    action: "Підтвердити адресу",
    expiry: "Посилання працює один раз і лише 48 годин.",
    pathOnly: "Щоб підтвердити адресу, відкрийте цю адресу в Spolu: {path}",
    footer: "Якщо ви не створювали обліковий запис Spolu, проігноруйте цей лист.",
  },
};

/** Every locale's messages; lib/email/templates.test.ts checks that each has exactly the English keys. */
export const EMAIL_MESSAGES: Readonly<Record<Locale, EmailMessages>> = { en, cs, he, ru, ua };

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

type Translator = ReturnType<typeof translatorFor>;

function translatorFor(locale: Locale, timeZone: string) {
  return createTranslator({ locale: languageTag(locale), messages: EMAIL_MESSAGES[locale], timeZone });
}

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
  const t = translatorFor(locale, timeZone);
  const rendered = body(email, { t, dates: new Dates(languageTag(locale), timeZone), locale, appUrl: options.appUrl });
  const { subject, blocks } = rendered;
  const greeting = t("common.greeting", { name: recipient.name });
  const footer = rendered.footer ?? t("common.footer");
  const line = oneLine(subject);
  return { subject: line, text: toText(greeting, blocks, footer), html: toHtml(line, greeting, blocks, footer, locale) };
}
