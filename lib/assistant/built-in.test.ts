import IntlMessageFormat from "intl-messageformat";
import { describe, expect, test } from "vitest";
import { LOCALES, languageTag } from "../i18n/locales";
import { serverMessages } from "../i18n/server-messages";
import { builtInBriefing, builtInChat, builtInWeekly, matchTasks } from "./built-in";
import type { Facts } from "./facts";
import type { FactTask } from "./repo";

const PRAGUE = "Europe/Prague";
// Thursday 2027-03-25, 11:00 in Prague (CET, UTC+1).
const NOW = new Date("2027-03-25T10:00:00Z");

const task = (title: string, dueAt: string | null, priority: FactTask["priority"] = "normal"): FactTask => ({
  id: `00000000-0000-4000-8000-${String(title.length).padStart(12, "0")}`,
  title,
  status: "todo",
  priority,
  dueAt: dueAt ? new Date(dueAt) : null,
});

const RENT = task("Pay rent", "2027-03-25T14:00:00Z"); // today 15:00
const JANA = { ...task("Call Jana", "2027-03-24T08:00:00Z"), id: "00000000-0000-4000-8000-0000000000aa" }; // yesterday 09:00
const DENTIST = task("Dentist appointment", "2027-03-26T07:30:00Z"); // Friday 08:30
const BOOK = task("Read the book", null, "urgent");
const TAXES = task("Taxes", "2027-04-20T10:00:00Z");

function facts(overrides: Partial<Facts> = {}): Facts {
  const openTasks = [JANA, RENT, DENTIST, TAXES, BOOK];
  return {
    now: NOW,
    timeZone: PRAGUE,
    today: "2027-03-25",
    openTasks,
    openCount: openTasks.length,
    goals: [
      {
        id: "10000000-0000-4000-8000-000000000001",
        title: "Learn Czech",
        status: "active",
        progress: 40,
        progressMode: "manual",
        targetDate: "2027-06-01",
      },
    ],
    ...overrides,
  };
}

describe("builtInChat", () => {
  test("what is due today: the user's real titles and times, in their language", () => {
    const en = builtInChat("What is due today?", facts(), "en");
    expect(en.text).toBe("Due today (1 task):\n• Pay rent – 3:00 PM");
    expect(en.proposals).toEqual([]);
    expect(builtInChat("Co mám dnes?", facts(), "cs").text).toBe("Dnes k termínu (1 úkol):\n• Pay rent – 15:00");
    expect(builtInChat("What is due today?", facts({ openTasks: [TAXES], openCount: 1 }), "en").text).toBe(
      "Nothing is due today.",
    );
  });

  test("overdue, this week, a named day", () => {
    expect(builtInChat("what is overdue?", facts(), "en").text).toBe("Overdue (1 task):\n• Call Jana – Wed, Mar 24, 9:00 AM");
    // From today on: what is overdue is listed as overdue.
    expect(builtInChat("what is due this week?", facts(), "en").text).toBe(
      "Due this week, until Sunday, March 28 (2 tasks):\n• Pay rent – 3:00 PM\n• Dentist appointment – Fri, Mar 26, 8:30 AM",
    );
    expect(builtInChat("anything on friday?", facts(), "en").text).toBe(
      "Due on Friday, March 26 (1 task):\n• Dentist appointment – Fri, Mar 26, 8:30 AM",
    );
  });

  test("how many, what next (overdue first, then today, then by priority), goals", () => {
    expect(builtInChat("how many tasks do I have?", facts(), "en").text).toBe(
      "You have 5 open tasks.\n1 of them is overdue.\n1 is due today.",
    );
    expect(builtInChat("Kolik mám úkolů?", facts(), "cs").text).toBe(
      "Máte 5 otevřených úkolů.\n1 z nich je po termínu.\n1 má termín dnes.",
    );
    const next = builtInChat("what should I do next?", facts(), "en").text.split("\n");
    expect(next[0]).toBe("Next I would do “Call Jana”: it has been overdue since Wed, Mar 24, 9:00 AM.");
    expect(next.slice(1)).toEqual(["After that:", "• Pay rent – 3:00 PM", "• Dentist appointment – Fri, Mar 26, 8:30 AM"]);
    expect(builtInChat("what next?", facts({ openTasks: [TAXES, BOOK], openCount: 2 }), "en").text).toMatch(
      /^Next I would do “Taxes”: it is due Tue, Apr 20/,
    );
    expect(builtInChat("how are my goals?", facts(), "en").text).toBe("Your goals:\n• Learn Czech: 40% (target Tuesday, June 1)");
  });

  test("add a task: proposes it, due at 17:00 local on the day named", () => {
    const answer = builtInChat("add task Buy milk tomorrow", facts(), "en");
    expect(answer.proposals).toEqual([
      { kind: "create_task", title: "Buy milk", dueAt: new Date("2027-03-26T16:00:00Z"), taskId: null },
    ]);
    expect(answer.text).toBe("Shall I add the task “Buy milk”, due Fri, Mar 26, 5:00 PM? Confirm it below.");
    // Today after 17:00: 23:59 instead of a time already gone.
    const late = builtInChat("add task Sleep today", facts({ now: new Date("2027-03-25T17:30:00Z") }), "en");
    expect(late.proposals[0]?.dueAt).toEqual(new Date("2027-03-25T22:59:00Z"));
    expect(builtInChat("add task", facts(), "en")).toEqual({
      text: expect.stringContaining("What should the new task be called?"),
      proposals: [],
    });
  });

  test("move a task: finds it by title, keeps its time of day, asks when unclear", () => {
    const moved = builtInChat("move the dentist appointment to Monday", facts(), "en");
    expect(moved.proposals).toEqual([
      { kind: "reschedule_task", title: "Dentist appointment", dueAt: new Date("2027-03-29T06:30:00Z"), taskId: DENTIST.id },
    ]);
    expect(moved.text).toBe("Shall I move “Dentist appointment” to Mon, Mar 29, 8:30 AM? Confirm it below.");
    expect(builtInChat("přesuň Nájem na zítra", facts(), "cs")).toEqual({
      text: "Nenašel (nenašla) jsem žádný váš otevřený úkol, který by odpovídal „Nájem“.",
      proposals: [],
    });
    expect(builtInChat("move Pay rent", facts(), "en").text).toBe(
      "When should “Pay rent” be due? For example: “move Pay rent to Friday”.",
    );
    const two = facts({ openTasks: [task("Call Jana", null), task("Call Jana's mum", null)] });
    expect(builtInChat("move call to Friday", two, "en").text).toBe(
      "Several of your tasks match “call”: Call Jana or Call Jana's mum. Which one do you mean?",
    );
  });

  test("anything else, in any language: an overview of the user's own tasks and what it can do", () => {
    const text = builtInChat("Привет! Как дела?", facts(), "ru").text;
    expect(text).toContain("У вас 5 открытых задач.");
    expect(text).toContain("«Call Jana»");
    expect(text).toContain("Learn Czech: 40%");
    expect(text).toContain("«добавь задачу … на завтра»");
  });

  test("questions and new tasks in Russian, Ukrainian and Hebrew", () => {
    expect(builtInChat("Что у меня на сегодня?", facts(), "ru").text).toBe("Срок сегодня (1 задача):\n• Pay rent – 15:00");
    expect(builtInChat("Що прострочено?", facts(), "ua").text).toMatch(/^Прострочено \(1 завдання\):\n• Call Jana – /);
    expect(builtInChat("מה כדאי לעשות עכשיו?", facts(), "he").text).toMatch(/^הייתי מתחיל\/ה עכשיו ב„Call Jana”/);
    const added = builtInChat("Добавь задачу «Позвонить в банк» на завтра", facts(), "ru");
    expect(added.proposals).toEqual([
      { kind: "create_task", title: "Позвонить в банк", dueAt: new Date("2027-03-26T16:00:00Z"), taskId: null },
    ]);
    expect(builtInChat("הוסף משימה להתקשר לבנק מחר", facts(), "he").proposals[0]).toMatchObject({
      title: "להתקשר לבנק",
      dueAt: new Date("2027-03-26T16:00:00Z"),
    });
  });
});

describe("matchTasks", () => {
  test("an exact title beats partial ones; diacritics and case do not matter", () => {
    const tasks = [task("Nákup", null), task("Nákup na víkend", null)];
    expect(matchTasks("nakup", tasks).map((found) => found.title)).toEqual(["Nákup"]);
    expect(matchTasks("víkend", tasks).map((found) => found.title)).toEqual(["Nákup na víkend"]);
    expect(matchTasks("   ", tasks)).toEqual([]);
  });
});

describe("narratives", () => {
  test("the briefing names the day, counts, where to start and the nearest goal", () => {
    const text = builtInBriefing({ date: "2027-03-25", today: [RENT], overdue: [JANA], goals: facts().goals }, facts(), "en");
    expect(text).toBe(
      "1 task is due on Thursday, March 25. 1 task is overdue. Start with “Call Jana”. Your goal “Learn Czech” is at 40%; its target date is Tuesday, June 1.",
    );
    expect(builtInBriefing({ date: "2027-03-26", today: [], overdue: [], goals: [] }, facts(), "cs")).toBe(
      "Na 26. března (pátek) nemáte nic k termínu a nic není po termínu: volný den.",
    );
  });

  test("the briefing counts the cards due for review, and says nothing of them when there are none", () => {
    const day = { date: "2027-03-26", today: [], overdue: [], goals: [] };
    expect(builtInBriefing({ ...day, reviews: { total: 3 } }, facts(), "en")).toMatch(/ 3 cards are waiting for review\.$/);
    expect(builtInBriefing({ ...day, reviews: { total: 5 } }, facts(), "ru")).toMatch(/ 5 карточек ждут повторения\.$/);
    expect(builtInBriefing({ ...day, reviews: { total: 0 } }, facts(), "en")).not.toMatch(/review/);
    expect(builtInBriefing({ ...day, reviews: null }, facts(), "en")).not.toMatch(/review/);
  });

  test("the weekly narrative: done and created, open and overdue, how goals moved", () => {
    const week = {
      weekStart: "2027-03-15",
      weekEnd: "2027-03-21",
      completed: 3,
      created: 1,
      overdue: 2,
      open: 4,
      goals: [
        { ...facts().goals[0]!, progress: 55, progressAtStart: 40 },
        { ...facts().goals[0]!, title: "Run", progress: 10, progressAtStart: 10 },
        { ...facts().goals[0]!, title: "Read", progress: 20, progressAtStart: null },
      ],
    };
    expect(builtInWeekly(week, facts(), "en")).toBe(
      "From Monday, March 15 to Sunday, March 21 you completed 3 tasks and created 1 new one. 4 tasks are still open. 2 of them are overdue. " +
        "Goal “Learn Czech”: from 40% to 55%. Goal “Run”: still at 10%. Goal “Read”: now at 20%.",
    );
  });
});

/*
 * The assistant's words are the Assistant namespace of messages/*.json: lib/i18n/messages.test.ts checks that every
 * language has the English keys, translated, with the English arguments and a plural form for every count.
 */
describe("the built-in assistant's messages", () => {
  const values = {
    count: 0,
    completed: 0,
    created: 0,
    title: "T",
    due: "D",
    date: "X",
    query: "Q",
    titles: "A, B",
    progress: 5,
    from: 1,
    to: 2,
    start: "S",
    end: "E",
    reason: "today",
  };

  test.each(LOCALES)("%s: every message formats with the values the assistant passes", (locale) => {
    for (const [key, text] of Object.entries(serverMessages(locale).Assistant)) {
      const format = new IntlMessageFormat(text, languageTag(locale));
      expect(String(format.format(values)), `${locale} ${key}`).not.toMatch(/[{}]/);
    }
  });
});
