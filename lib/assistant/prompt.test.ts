import { describe, expect, test } from "vitest";
import type { Facts } from "./facts";
import { AnswerReader, chatPrompt, localIso, parseProposals } from "./prompt";

const PRAGUE = "Europe/Prague";
const TASK_ID = "3f2b6c1e-8a4d-4e5f-9a0b-1c2d3e4f5a6b";
const facts: Facts = {
  now: new Date("2027-03-25T10:00:00Z"),
  timeZone: PRAGUE,
  today: "2027-03-25",
  openTasks: [{ id: TASK_ID, title: "Pay rent", status: "todo", priority: "high", dueAt: new Date("2027-03-25T14:00:00Z") }],
  openCount: 1,
  goals: [],
};

describe("localIso", () => {
  test("the wall clock with its offset, on both sides of a DST change and of UTC", () => {
    expect(localIso(new Date("2027-03-25T14:00:00Z"), PRAGUE)).toBe("2027-03-25T15:00+01:00");
    expect(localIso(new Date("2027-07-01T14:00:00Z"), PRAGUE)).toBe("2027-07-01T16:00+02:00");
    expect(localIso(new Date("2027-07-01T14:00:00Z"), "America/St_Johns")).toBe("2027-07-01T11:30-02:30");
  });
});

describe("chatPrompt", () => {
  test("holds the facts, the conversation so far and the message, in the user's language", () => {
    const [system, earlier, message] = chatPrompt(facts, "cs", [{ role: "user", content: "Hi" }], "Co dnes?");
    expect(system?.role).toBe("system");
    expect(system?.content).toContain("Answer in Czech");
    expect(system?.content).toContain(
      `"id":"${TASK_ID}","title":"Pay rent","status":"todo","priority":"high","due":"2027-03-25T15:00+01:00","overdue":false`,
    );
    expect(earlier).toEqual({ role: "user", content: "Hi" });
    expect(message).toEqual({ role: "user", content: "Co dnes?" });
  });
});

describe("reading an answer", () => {
  test("the actions block is held back from the text as it streams, however it is cut", () => {
    const answer =
      'Sure: I can add it.\n```spolu-actions\n{"actions":[{"kind":"create_task","title":"Buy milk","dueAt":"2027-03-26"}]}\n```';
    for (const size of [1, 3, 7, 50]) {
      const reader = new AnswerReader();
      let shown = "";
      for (let at = 0; at < answer.length; at += size) shown += reader.push(answer.slice(at, at + size));
      expect(shown.trim()).toBe("Sure: I can add it.");
      expect(reader.finish(facts)).toEqual({
        text: "Sure: I can add it.",
        proposals: [{ kind: "create_task", title: "Buy milk", dueAt: new Date("2027-03-26T16:00:00Z"), taskId: null }],
      });
    }
  });

  test("backticks that are not the block are shown", () => {
    const reader = new AnswerReader();
    expect(reader.push("Use ``")).toBe("Use ");
    expect(reader.push("x`` here")).toBe("``x`` here");
  });

  test("invalid actions are dropped, valid ones kept", () => {
    const block = JSON.stringify({
      actions: [
        { kind: "create_task", title: "   " },
        { kind: "create_task", title: "No date", dueAt: null },
        { kind: "create_task", title: "Bad date", dueAt: "next blue moon" },
        { kind: "reschedule_task", taskId: "00000000-0000-4000-8000-000000000000", dueAt: "2027-03-26" },
        { kind: "reschedule_task", taskId: TASK_ID, dueAt: "2027-03-29" },
        { kind: "reschedule_task", taskId: TASK_ID, dueAt: "2027-03-30T09:00:00+02:00" },
        { kind: "delete_everything" },
      ],
    });
    expect(parseProposals(block, facts)).toEqual([
      { kind: "create_task", title: "No date", dueAt: null, taskId: null },
      // A date alone: the task keeps its time of day (15:00 in Prague, after the change to summer time).
      { kind: "reschedule_task", title: "Pay rent", dueAt: new Date("2027-03-29T13:00:00Z"), taskId: TASK_ID },
      { kind: "reschedule_task", title: "Pay rent", dueAt: new Date("2027-03-30T07:00:00Z"), taskId: TASK_ID },
    ]);
    expect(parseProposals("not json", facts)).toEqual([]);
    expect(parseProposals('{"actions": "none"}', facts)).toEqual([]);
  });
});
