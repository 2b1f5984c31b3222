import { describe, expect, test } from "vitest";
import { LOCALES, type Locale } from "../i18n/locales";
import type { UserEmail } from "./service";
import { escapeHtml, renderEmail, type Recipient } from "./templates";

const TASK_ID = "3f2b6c1e-8a4d-4e5f-9a0b-1c2d3e4f5a6b";
const APP_URL = "https://spolu.example";
const DUE = "2026-03-05T13:00:00Z"; // 14:00 in Prague, 15:00 in Jerusalem and Kyiv, 16:00 in Moscow

const EMAILS: UserEmail[] = [
  { template: "reminder", params: { taskId: TASK_ID, taskTitle: "Pay rent", dueAt: DUE, minutesBefore: 120 } },
  { template: "reminder", params: { taskId: TASK_ID, taskTitle: "Pay rent", dueAt: DUE, minutesBefore: null } },
  {
    template: "personal_reminder",
    params: { taskId: TASK_ID, taskTitle: "Pay rent", dueAt: DUE, senderName: "Jana", message: "Please\ntoday" },
  },
  {
    template: "daily_summary",
    params: {
      date: "2026-03-05",
      dueToday: [{ id: TASK_ID, title: "Pay rent", dueAt: DUE }],
      overdue: [{ id: "4f2b6c1e-8a4d-4e5f-9a0b-1c2d3e4f5a6b", title: "Call mum", dueAt: "2026-03-03T08:00:00Z" }],
    },
  },
  {
    template: "weekly_report",
    params: {
      weekStart: "2026-03-02",
      weekEnd: "2026-03-08",
      completed: 3,
      overdue: 1,
      created: 5,
      open: 7,
      narrative: "A steady week.\n\nKeep going with <the> thesis.",
      reportPath: "/en/reports/2026-03-02",
    },
  },
  {
    template: "notification",
    params: { title: "Jana accepted your request", body: "You now share “Pay rent”.", url: `/en/tasks/${TASK_ID}` },
  },
  { template: "password_reset", params: { token: "T".repeat(43), email: "petr@example.com" } },
  { template: "email_verification", params: { token: "V".repeat(43), email: "petr@example.com" } },
];

const who = (locale: string, timeZone = "Europe/Prague"): Recipient => ({ name: "Petr", locale, timeZone });

/** Each template's subject for Petr in Prague, by locale (the messages are the Email namespace of messages/*.json). */
const SUBJECTS: Record<string, Record<Locale, string>> = {
  reminder: {
    en: "Reminder: Pay rent",
    cs: "Připomínka: Pay rent",
    he: "תזכורת: Pay rent",
    ru: "Напоминание: Pay rent",
    ua: "Нагадування: Pay rent",
  },
  personal_reminder: {
    en: "Jana reminds you of “Pay rent”",
    cs: "Jana vám připomíná „Pay rent“",
    he: "תזכורת מאת Jana: „Pay rent”",
    ru: "Jana напоминает о задаче «Pay rent»",
    ua: "Jana нагадує про завдання «Pay rent»",
  },
  daily_summary: {
    en: "Your tasks for March 5, 2026",
    cs: "Vaše úkoly na 5. března 2026",
    he: "המשימות שלך ל־5 במרץ 2026",
    ru: "Ваши задачи на 5 марта 2026 г.",
    ua: "Ваші завдання на 5 березня 2026 р.",
  },
  weekly_report: {
    en: "Your week in Spolu: March 2, 2026 – March 8, 2026",
    cs: "Váš týden ve Spolu: 2. března 2026 – 8. března 2026",
    he: "השבוע שלך ב־Spolu: 2 במרץ 2026 – 8 במרץ 2026",
    ru: "Ваша неделя в Spolu: 2 марта 2026 г. – 8 марта 2026 г.",
    ua: "Ваш тиждень у Spolu: 2 березня 2026 р. – 8 березня 2026 р.",
  },
  password_reset: {
    en: "Reset your Spolu password",
    cs: "Obnovení hesla do Spolu",
    he: "איפוס הסיסמה ל־Spolu",
    ru: "Сброс пароля Spolu",
    ua: "Скидання пароля Spolu",
  },
  email_verification: {
    en: "Confirm your email address for Spolu",
    cs: "Potvrďte svou e-mailovou adresu pro Spolu",
    he: "אימות כתובת הדוא״ל שלך ב־Spolu",
    ru: "Подтвердите адрес электронной почты для Spolu",
    ua: "Підтвердьте адресу електронної пошти для Spolu",
  },
};
const GREETINGS: Record<Locale, string> = {
  en: "Hello Petr,",
  cs: "Dobrý den, Petr,",
  he: "שלום Petr,",
  ru: "Здравствуйте, Petr!",
  ua: "Вітаємо, Petr!",
};

describe("renderEmail", () => {
  test("every template's subject and greeting, in every language", () => {
    for (const email of EMAILS) {
      for (const locale of LOCALES) {
        const rendered = renderEmail(email, who(locale), { appUrl: APP_URL });
        const subject = SUBJECTS[email.template]?.[locale] ?? "Jana accepted your request"; // a notification's own title
        expect(rendered.subject, `${email.template} ${locale}`).toBe(subject);
        expect(rendered.text.startsWith(`${GREETINGS[locale]}\n\n`), `${email.template} ${locale}`).toBe(true);
      }
    }
  });

  test("renders every template in all five locales, each in its own language", () => {
    const subjects = new Map<string, Set<string>>();
    for (const email of EMAILS) {
      for (const locale of LOCALES) {
        const rendered = renderEmail(email, who(locale), { appUrl: APP_URL });
        expect(rendered.subject.length, `${email.template} ${locale}`).toBeGreaterThan(0);
        expect(rendered.subject).not.toMatch(/[\r\n]/);
        expect(rendered.text).toContain("Petr");
        expect(rendered.html).toMatch(/^<!doctype html>/);
        // use-intl answers the key itself for a message it cannot find or format.
        expect(rendered.text, `${email.template} ${locale}`).not.toMatch(
          /\b(common|reminder|personalReminder|dailySummary|weeklyReport)\.\w+/,
        );
        const key = `${email.template}:${JSON.stringify(email.params)}`;
        subjects.set(key, (subjects.get(key) ?? new Set()).add(rendered.subject));
      }
    }
    // The notification's subject is its (already localized) title; every other template differs per locale.
    for (const [key, set] of subjects) if (!key.startsWith("notification")) expect(set.size, key).toBe(LOCALES.length);
  });

  test("reminders speak the recipient's language, with the due time in their zone", () => {
    const email = EMAILS[0]!;
    expect(renderEmail(email, who("en", "Europe/Prague"))).toMatchObject({ subject: "Reminder: Pay rent" });
    expect(renderEmail(email, who("en", "Europe/Prague")).text).toContain("“Pay rent” is due in 2 hours (Mar 5, 2026, 2:00 PM).");
    expect(renderEmail(email, who("cs", "Europe/Prague")).text).toContain(
      "Úkol „Pay rent“ má termín za 2 hodiny (5. 3. 2026 14:00).",
    );
    const russian = renderEmail(email, who("ru", "Europe/Moscow"));
    expect(russian.subject).toBe("Напоминание: Pay rent");
    expect(russian.text).toContain("через 2 часа");
    expect(russian.text).toContain("16:00");
    const ukrainian = renderEmail(email, who("ua", "Europe/Kyiv"));
    expect(ukrainian.subject).toBe("Нагадування: Pay rent");
    expect(ukrainian.text).toContain("через 2 години");
    expect(ukrainian.html).toContain('lang="uk"');
    const hebrew = renderEmail(email, who("he", "Asia/Jerusalem"));
    expect(hebrew.subject).toBe("תזכורת: Pay rent");
    expect(hebrew.text).toContain("15:00");
    // The same moment, due now.
    expect(renderEmail(EMAILS[1]!, who("en", "UTC")).text).toContain("“Pay rent” is due now (Mar 5, 2026, 1:00 PM).");
  });

  test("plurals follow each language's rules", () => {
    const report = (completed: number, locale: string) =>
      renderEmail(
        {
          template: "weekly_report",
          params: {
            weekStart: "2026-03-02",
            weekEnd: "2026-03-08",
            completed,
            overdue: 0,
            created: 0,
            open: 0,
            narrative: null,
            reportPath: `/${locale}/reports/2026-03-02`,
          },
        },
        who(locale),
      ).text;
    expect(report(1, "en")).toContain("Last week you completed 1 task.");
    expect(report(3, "en")).toContain("Last week you completed 3 tasks.");
    expect(report(0, "en")).toContain("Last week you completed no tasks.");
    expect(report(3, "cs")).toContain("dokončili 3 úkoly.");
    expect(report(5, "cs")).toContain("dokončili 5 úkolů.");
    expect(report(21, "ru")).toContain("выполнили 21 задачу.");
    expect(report(22, "ru")).toContain("выполнили 22 задачи.");
    expect(report(25, "ru")).toContain("выполнили 25 задач.");
    expect(report(5, "ua")).toContain("виконали 5 завдань.");
    expect(report(2, "he")).toContain("הושלמו שתי משימות");
  });

  test("the weekly report names the week it covers, carries the assistant's narrative and links to the report", () => {
    const email = renderEmail(
      EMAILS.find((item) => item.template === "weekly_report")!,
      who("en"),
      { appUrl: "https://spolu.example/" },
    );
    expect(email.subject).toBe("Your week in Spolu: March 2, 2026 – March 8, 2026");
    expect(email.text).toContain("Your assistant on the week:");
    expect(email.text).toContain("A steady week.");
    expect(email.text).toContain("Keep going with <the> thesis.");
    expect(email.text).toContain("https://spolu.example/en/reports/2026-03-02");
    expect(email.html).toContain("Keep going with &lt;the&gt; thesis.");
    expect(email.html).toContain('href="https://spolu.example/en/reports/2026-03-02"');
    const czech = renderEmail(
      EMAILS.find((item) => item.template === "weekly_report")!,
      who("cs"),
    );
    expect(czech.text).toContain("Minulý týden jste dokončili 3 úkoly.");
  });

  test("HTML escapes a title like <script> everywhere; the text keeps it as written", () => {
    const title = `<script>alert("x")</script> & 'co'`;
    for (const locale of LOCALES) {
      const rendered = renderEmail(
        {
          template: "personal_reminder",
          params: {
            taskId: TASK_ID,
            taskTitle: title,
            dueAt: null,
            senderName: "<b>Eve</b>",
            message: "<img src=x onerror=alert(1)>",
          },
        },
        who(locale),
        { appUrl: APP_URL },
      );
      expect(rendered.html, locale).not.toMatch(/<script|<b>|<img/);
      expect(rendered.html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;co&#39;");
      expect(rendered.html).toContain("&lt;img src=x onerror=alert(1)&gt;");
      expect(rendered.text).toContain(title);
      expect(rendered.subject).toContain(title);
    }
    const summary = renderEmail(
      { template: "daily_summary", params: { date: "2026-03-05", dueToday: [{ id: TASK_ID, title, dueAt: DUE }], overdue: [] } },
      who("en"),
      { appUrl: APP_URL },
    );
    expect(summary.html).not.toContain("<script");
    expect(summary.html).toContain(`<a href="${APP_URL}/en/tasks/${TASK_ID}"`);
    expect(escapeHtml(`"'<>&`)).toBe("&quot;&#39;&lt;&gt;&amp;");
  });

  test("Hebrew mail is right to left; the others left to right", () => {
    for (const email of EMAILS) {
      const hebrew = renderEmail(email, who("he"));
      expect(hebrew.html).toContain('<html lang="he" dir="rtl">');
      expect(hebrew.html).toMatch(/<body dir="rtl"/);
      for (const locale of ["en", "cs", "ru", "ua"]) {
        const html = renderEmail(email, who(locale)).html;
        expect(html).toContain('dir="ltr"');
        expect(html).not.toContain('dir="rtl"');
      }
    }
  });

  test("links to the task under APP_URL in the recipient's locale, and none without APP_URL", () => {
    const email = EMAILS[2]!;
    const linked = renderEmail(email, who("cs"), { appUrl: `${APP_URL}/` });
    expect(linked.text).toContain(`Otevřít úkol: ${APP_URL}/cs/tasks/${TASK_ID}`);
    expect(linked.html).toContain(`<a href="${APP_URL}/cs/tasks/${TASK_ID}"`);
    const unlinked = renderEmail(email, who("cs"));
    expect(unlinked.text).not.toContain("/tasks/");
    expect(unlinked.html).not.toContain("<a ");
    // A notification's relative URL needs APP_URL too; a script URL is never a link.
    const notification = (url: string, appUrl?: string) =>
      renderEmail({ template: "notification", params: { title: "T", body: "B", url } }, who("en"), { appUrl }).html;
    expect(notification("/en/tasks/1", APP_URL)).toContain(`href="${APP_URL}/en/tasks/1"`);
    expect(notification("/en/tasks/1")).not.toContain("<a ");
    expect(notification("javascript:alert(1)", APP_URL)).not.toContain("<a ");
  });

  test("the personal message and the sender's name appear; a missing due date says so", () => {
    const email: UserEmail = {
      template: "personal_reminder",
      params: { taskId: TASK_ID, taskTitle: "Pay rent", dueAt: null, senderName: "Jana", message: "Please\ntoday" },
    };
    const english = renderEmail(email, who("en"));
    expect(english.subject).toBe("Jana reminds you of “Pay rent”");
    expect(english.text).toContain("No due date");
    expect(english.text).toContain("Jana writes:\n\n> Please\n> today");
    expect(english.html).toContain("Please<br>today");
    expect(renderEmail(email, who("ru")).text).toContain("Jana пишет:");
  });

  test("an unknown locale falls back to English, an unknown time zone to UTC", () => {
    const rendered = renderEmail(EMAILS[0]!, { name: "X", locale: "de", timeZone: "Mars/Olympus" });
    expect(rendered.subject).toBe("Reminder: Pay rent");
    expect(rendered.text).toContain("(Mar 5, 2026, 1:00 PM)");
  });

  test("a daily summary lists today's tasks by time and overdue ones by date, or says there is nothing", () => {
    const summary = renderEmail(EMAILS[3]!, who("en", "Europe/Prague"), { appUrl: APP_URL });
    expect(summary.subject).toBe("Your tasks for March 5, 2026");
    expect(summary.text).toContain("Due today (1)\n\n- Pay rent – 2:00 PM");
    expect(summary.text).toContain("Overdue (1)\n\n- Call mum – Mar 3, 2026, 9:00 AM");
    const empty = renderEmail(
      { template: "daily_summary", params: { date: "2026-03-05", dueToday: [], overdue: [] } },
      who("cs"),
    );
    expect(empty.text).toContain("Dnes nemáte nic k termínu");
  });
});

describe("the emailed links", () => {
  test("go to the page in the recipient's language with the token in the fragment; without APP_URL the path is written out", () => {
    const reset: UserEmail = { template: "password_reset", params: { token: "T".repeat(43), email: "petr@example.com" } };
    const czech = renderEmail(reset, who("cs"), { appUrl: APP_URL });
    expect(czech.text).toContain(`Zvolit nové heslo: ${APP_URL}/cs/reset-password#token=${"T".repeat(43)}`);
    expect(czech.html).toContain(`href="${APP_URL}/cs/reset-password#token=${"T".repeat(43)}"`);
    // Not the settings footer: this email is no choice of theirs.
    expect(czech.text).toContain("Pokud jste o nic nežádali");

    const verify: UserEmail = { template: "email_verification", params: { token: "V".repeat(43), email: "petr@example.com" } };
    const hebrew = renderEmail(verify, who("he", "Asia/Jerusalem"));
    expect(hebrew.text).toContain(`/he/verify-email#token=${"V".repeat(43)}`);
    expect(hebrew.html).not.toContain("<a ");
    expect(hebrew.html).toContain('dir="rtl"');
  });
});
