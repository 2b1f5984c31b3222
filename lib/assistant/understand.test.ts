import { describe, expect, test } from "vitest";
import { findDate, fold, understand } from "./understand";

// Thursday 2027-03-25.
const TODAY = "2027-03-25";

describe("fold", () => {
  test("drops case and diacritics but keeps every character's place", () => {
    const text = "Přesuň ÚKOL „Čaj“ na pátek 🍵";
    expect(fold(text)).toBe("presun ukol „caj“ na patek 🍵");
    expect(fold(text)).toHaveLength(text.length);
  });
});

describe("findDate", () => {
  test.each([
    ["tomorrow", "2027-03-26"],
    ["the day after tomorrow", "2027-03-27"],
    ["to friday", "2027-03-26"],
    ["on thursday", "2027-04-01"], // today is Thursday: the next one
    ["next week", "2027-03-29"],
    ["in 10 days", "2027-04-04"],
    ["until 2027-05-01", "2027-05-01"],
    ["na patek", "2027-03-26"],
    ["zitra", "2027-03-26"],
    ["pozitri", "2027-03-27"],
    ["ve stredu", "2027-03-31"],
    ["do pristi tyden", "2027-03-29"],
    ["za 3 dny", "2027-03-28"],
    ["na 2. 4.", "2027-04-02"],
    ["na 1.3.", "2028-03-01"], // passed this year: next year's
  ])("%s → %s", (phrase, date) => {
    expect(findDate(fold(`something ${phrase}`), TODAY)?.date).toBe(date);
  });

  test("no date in plain words, nor in an impossible one", () => {
    expect(findDate("buy milk", TODAY)).toBeNull();
    expect(findDate("on 2027-02-30", TODAY)).toBeNull();
    expect(findDate("what is due this week", TODAY)).toBeNull();
  });
});

describe("understand", () => {
  test("questions in English and Czech", () => {
    expect(understand("What is due today?", TODAY)).toEqual({ kind: "due_on", date: TODAY });
    expect(understand("Co mám dnes?", TODAY)).toEqual({ kind: "due_on", date: TODAY });
    expect(understand("anything due on Friday?", TODAY)).toEqual({ kind: "due_on", date: "2027-03-26" });
    expect(understand("What's due this week?", TODAY)).toEqual({ kind: "week" });
    expect(understand("Co mě čeká tento týden?", TODAY)).toEqual({ kind: "week" });
    expect(understand("What is overdue?", TODAY)).toEqual({ kind: "overdue" });
    expect(understand("Co je po termínu?", TODAY)).toEqual({ kind: "overdue" });
    expect(understand("How many open tasks do I have?", TODAY)).toEqual({ kind: "count" });
    expect(understand("Kolik mám úkolů?", TODAY)).toEqual({ kind: "count" });
    expect(understand("What should I do next?", TODAY)).toEqual({ kind: "next" });
    expect(understand("Co dál?", TODAY)).toEqual({ kind: "next" });
    expect(understand("How are my goals going?", TODAY)).toEqual({ kind: "goals" });
    expect(understand("Jak jsem na tom s cíli?", TODAY)).toEqual({ kind: "goals" });
    expect(understand("Здравствуйте!", TODAY)).toEqual({ kind: "overview" });
  });

  test("adding a task: the title keeps its letters, the date phrase comes out", () => {
    expect(understand("add task Buy milk tomorrow", TODAY)).toEqual({
      kind: "create_task",
      title: "Buy milk",
      date: "2027-03-26",
    });
    expect(understand("Please create a new task: “Call Jana” on Friday.", TODAY)).toEqual({
      kind: "create_task",
      title: "Call Jana",
      date: "2027-03-26",
    });
    expect(understand("remind me to water the plants", TODAY)).toEqual({
      kind: "create_task",
      title: "water the plants",
      date: null,
    });
    expect(understand("Přidej úkol Zavolat na úřad zítra", TODAY)).toEqual({
      kind: "create_task",
      title: "Zavolat na úřad",
      date: "2027-03-26",
    });
    expect(understand("přidej úkol", TODAY)).toEqual({ kind: "create_task", title: null, date: null });
  });

  test("questions and new tasks in Russian, Ukrainian and Hebrew", () => {
    expect(understand("Что у меня на сегодня?", TODAY)).toEqual({ kind: "due_on", date: TODAY });
    expect(understand("Що в мене на сьогодні?", TODAY)).toEqual({ kind: "due_on", date: TODAY });
    expect(understand("מה צריך לעשות היום?", TODAY)).toEqual({ kind: "due_on", date: TODAY });
    expect(understand("А послезавтра?", TODAY)).toEqual({ kind: "due_on", date: "2027-03-27" });
    expect(understand("מה יש לי למחר?", TODAY)).toEqual({ kind: "due_on", date: "2027-03-26" });
    expect(understand("Что просрочено?", TODAY)).toEqual({ kind: "overdue" });
    expect(understand("מה באיחור?", TODAY)).toEqual({ kind: "overdue" });
    expect(understand("Что на этой неделе?", TODAY)).toEqual({ kind: "week" });
    expect(understand("Скільки в мене завдань?", TODAY)).toEqual({ kind: "count" });
    expect(understand("Что делать дальше?", TODAY)).toEqual({ kind: "next" });
    expect(understand("Як справи з цілями?", TODAY)).toEqual({ kind: "goals" });
    expect(understand("Добавь задачу «Позвонить в банк» на завтра", TODAY)).toEqual({
      kind: "create_task",
      title: "Позвонить в банк",
      date: "2027-03-26",
    });
    expect(understand("Додай завдання Купити хліб", TODAY)).toEqual({ kind: "create_task", title: "Купити хліб", date: null });
    expect(understand("הוסף משימה להתקשר לבנק למחר", TODAY)).toEqual({
      kind: "create_task",
      title: "להתקשר לבנק",
      date: "2027-03-26",
    });
  });

  test("moving a task: what it is called and where to", () => {
    expect(understand("move Buy milk to Friday", TODAY)).toEqual({
      kind: "reschedule_task",
      query: "Buy milk",
      date: "2027-03-26",
    });
    expect(understand("Reschedule the task 'Dentist' to 2027-04-02", TODAY)).toEqual({
      kind: "reschedule_task",
      query: "Dentist",
      date: "2027-04-02",
    });
    expect(understand("Přesuň úkol Nákup na pondělí", TODAY)).toEqual({
      kind: "reschedule_task",
      query: "Nákup",
      date: "2027-03-29",
    });
    expect(understand("postpone taxes", TODAY)).toEqual({ kind: "reschedule_task", query: "taxes", date: null });
  });
});
