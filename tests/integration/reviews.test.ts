import { createEmptyCard, fsrs, generatorParameters, Rating, type Card, type Grade } from "ts-fsrs";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { advanceClock, resetClock } from "../../lib/clock";
import { moduleOverrides } from "../../lib/modules/registry";
import {
  cardListOutput,
  cardOutput,
  dueListOutput,
  historyOutput,
  reviewOutput,
  reviewSettingsOutput,
} from "../../lib/reviews/schema";
import { createTask, expectProblem, expectShape, registerUser, startTestServer, type TestServer } from "./harness";

/*
 * The spaced-repetition module over HTTP, with an injected clock: cards (CRUD, links to goals and tasks, filters),
 * reviews scheduled exactly as ts-fsrs schedules the same inputs, the due queue as time passes, reviews counted
 * once, the desired retention, validation, and the module switched off.
 */

const NOW = "2026-03-02T09:00:00Z";
const MINUTE = 60_000;
const DAY = 86_400_000;
const GRADES = ["again", "hard", "good", "easy"] as const;
type GradeName = (typeof GRADES)[number];
const RATING: Record<GradeName, Grade> = { again: Rating.Again, hard: Rating.Hard, good: Rating.Good, easy: Rating.Easy };

let server: TestServer;
type User = Awaited<ReturnType<typeof registerUser>>;
const api = (path: string, options?: Parameters<TestServer["request"]>[1]) => server.request(`/api/v1${path}`, options);

/** Sets the server's clock to an instant. */
function setClock(instant: string | number) {
  resetClock();
  advanceClock((typeof instant === "number" ? instant : Date.parse(instant)) - Date.now());
}

async function newCard(user: User, fields: Record<string, unknown> = {}) {
  const response = await api("/review-cards", { token: user.token, json: { front: "der Hund", back: "the dog", ...fields } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return expectShape(cardOutput, response.body);
}

async function reviewOnce(user: User, cardId: string, json: Record<string, unknown>, status = 201) {
  const response = await api(`/review-cards/${cardId}/reviews`, { token: user.token, json });
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  return expectShape(reviewOutput, response.body);
}

async function dueFronts(user: User): Promise<string[]> {
  const response = await api("/reviews/due", { token: user.token });
  expect(response.status).toBe(200);
  return expectShape(dueListOutput, response.body).items.map((card) => card.front);
}

beforeAll(async () => {
  server = await startTestServer();
});
beforeEach(() => setClock(NOW));
afterAll(async () => {
  resetClock();
  moduleOverrides().delete("spaced-repetition");
  await server.close();
});

describe("review cards", () => {
  test("POST, GET, PATCH, DELETE /review-cards/{id}: a new card is due at once; editing keeps its schedule", async () => {
    const me = await registerUser(server);
    const card = await newCard(me, { front: "  la casa ", back: "the house", deck: "Spanish" });
    expect(card).toMatchObject({
      front: "la casa",
      back: "the house",
      deck: "Spanish",
      goal: null,
      task: null,
      state: "new",
      reps: 0,
      lapses: 0,
      lastReview: null,
    });
    expect(card.due).toBe(card.createdAt);
    expect(Date.parse(card.due)).toBeGreaterThanOrEqual(Date.parse(NOW));

    expect((await api(`/review-cards/${card.id}`, { token: me.token })).body).toEqual(card);
    await reviewOnce(me, card.id, { grade: "easy" });
    const edited = await api(`/review-cards/${card.id}`, {
      method: "PATCH",
      token: me.token,
      json: { back: "the home", deck: null },
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    const after = expectShape(cardOutput, edited.body);
    expect(after).toMatchObject({ front: "la casa", back: "the home", deck: null, state: "review", reps: 1 });
    expect(Date.parse(after.due)).toBeGreaterThan(Date.parse(NOW) + DAY);

    expect((await api(`/review-cards/${card.id}`, { method: "DELETE", token: me.token })).status).toBe(204);
    expectProblem(await api(`/review-cards/${card.id}`, { token: me.token }), 404, "not_found");
    expectProblem(await api(`/review-cards/${card.id}/reviews`, { token: me.token }), 404, "not_found");
    expect((await server.sql("select 1 from review_logs where card_id = $1", [card.id])).length).toBe(0);
  });

  test("links: the user's own goal and a task they can see; another user's goal or task is a 404; deleted ones unlink", async () => {
    const me = await registerUser(server);
    const other = await registerUser(server);
    const goal = (await api("/goals", { token: me.token, json: { title: "German B1" } })).body;
    const task = await createTask(server, me.token, { title: "Vocabulary list" });
    const theirGoal = (await api("/goals", { token: other.token, json: { title: "Their goal" } })).body;
    const theirTask = await createTask(server, other.token, { title: "Their task" });

    const card = await newCard(me, { goalId: goal.id, taskId: task.id });
    expect(card).toMatchObject({ goal: { id: goal.id, title: "German B1" }, task: { id: task.id, title: "Vocabulary list" } });

    for (const json of [{ goalId: theirGoal.id }, { taskId: theirTask.id }]) {
      const created = await api("/review-cards", { token: me.token, json: { front: "x", back: "y", ...json } });
      const detail = expectProblem(created, 404, "not_found").detail;
      expect(detail).toMatch(Object.keys(json)[0]!);
      expect(JSON.stringify(created.body)).not.toContain("Their");
      expectProblem(await api(`/review-cards/${card.id}`, { method: "PATCH", token: me.token, json }), 404, "not_found");
    }
    // The refused changes left the links as they were.
    expect((await api(`/review-cards/${card.id}`, { token: me.token })).body).toMatchObject({
      goal: { id: goal.id },
      task: { id: task.id },
    });

    // A task shared with me may be linked; once it is no longer, the card shows no task.
    const shared = await createTask(server, other.token, { title: "Shared reading" });
    await server.sql("insert into task_assignees (task_id, user_id) values ($1, $2)", [shared.id, me.user.id]);
    const onShared = await newCard(me, { taskId: shared.id });
    expect(onShared.task).toEqual({ id: shared.id, title: "Shared reading" });
    await server.sql("delete from task_assignees where task_id = $1", [shared.id]);
    expect((await api(`/review-cards/${onShared.id}`, { token: me.token })).body.task).toBeNull();

    // Unlinking with null; deleting the goal or task unlinks it.
    const unlinked = await api(`/review-cards/${card.id}`, { method: "PATCH", token: me.token, json: { taskId: null } });
    expect(unlinked.body).toMatchObject({ goal: { id: goal.id }, task: null });
    expect((await api(`/goals/${goal.id}`, { method: "DELETE", token: me.token })).status).toBe(204);
    expect((await api(`/review-cards/${card.id}`, { token: me.token })).body).toMatchObject({ goal: null, front: "der Hund" });
  });

  test("GET /review-cards: newest first, filters due, goalId, taskId and deck, pages with nextCursor; only one's own", async () => {
    const me = await registerUser(server);
    const other = await registerUser(server);
    const goal = (await api("/goals", { token: me.token, json: { title: "Italian" } })).body;
    const task = await createTask(server, me.token);
    const a = await newCard(me, { front: "A", deck: "Italian", goalId: goal.id });
    advanceClock(1000);
    const b = await newCard(me, { front: "B", taskId: task.id });
    advanceClock(1000);
    const c = await newCard(me, { front: "C", deck: "Italian" });
    await newCard(other, { front: "Zebra", goalId: undefined });
    await reviewOnce(me, c.id, { grade: "easy" });

    const list = async (query: string) => {
      const response = await api(`/review-cards${query}`, { token: me.token });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      return expectShape(cardListOutput, response.body);
    };
    expect((await list("")).items.map((card) => card.front)).toEqual(["C", "B", "A"]);
    expect((await list("?due=true")).items.map((card) => card.front)).toEqual(["B", "A"]);
    expect((await list("?due=false")).items.map((card) => card.front)).toEqual(["C"]);
    expect((await list(`?goalId=${goal.id}`)).items.map((card) => card.id)).toEqual([a.id]);
    expect((await list(`?taskId=${task.id}`)).items.map((card) => card.id)).toEqual([b.id]);
    expect((await list("?deck=Italian")).items.map((card) => card.front)).toEqual(["C", "A"]);
    const first = await list("?limit=2");
    expect(first.items.map((card) => card.front)).toEqual(["C", "B"]);
    const second = await list(`?limit=2&cursor=${first.nextCursor}`);
    expect(second).toMatchObject({ items: [{ front: "A" }], nextCursor: null });

    // The other user's filters on my goal find nothing of mine.
    const theirs = await api(`/review-cards?goalId=${goal.id}`, { token: other.token });
    expect(theirs.body.items).toEqual([]);
    expect(JSON.stringify((await api("/review-cards", { token: other.token })).body)).not.toContain(a.id);
  });

  test("invalid input is a 400 naming each field", async () => {
    const me = await registerUser(server);
    const card = await newCard(me);
    const pointers = async (response: Awaited<ReturnType<typeof api>>) =>
      expectProblem(response, 400, "validation_failed")
        .errors!.map((error) => error.pointer)
        .sort();
    expect(
      await pointers(await api("/review-cards", { token: me.token, json: { front: " ", back: "x".repeat(4001), deck: "" } })),
    ).toEqual(["/back", "/deck", "/front"]);
    expect(
      await pointers(await api("/review-cards", { token: me.token, json: { front: "a", back: "b", goalId: "nope", reps: 5 } })),
    ).toEqual(["/goalId", "/reps"]);
    expect(await pointers(await api(`/review-cards/${card.id}`, { method: "PATCH", token: me.token, json: {} }))).toEqual([
      "/front",
    ]);
    expect(
      await pointers(
        await api(`/review-cards/${card.id}/reviews`, { token: me.token, json: { grade: "perfect", reviewId: "1" } }),
      ),
    ).toEqual(["/grade", "/reviewId"]);
    expect(
      await pointers(
        await api(`/review-cards/${card.id}/reviews`, { token: me.token, json: { grade: "good", reviewedAt: "yesterday" } }),
      ),
    ).toEqual(["/reviewedAt"]);
    expect(await pointers(await api("/review-cards/not-a-uuid", { token: me.token }))).toEqual(["/id"]);
    expect(await pointers(await api("/review-cards?due=yes&limit=201", { token: me.token }))).toEqual(["/due", "/limit"]);
    expect(await pointers(await api("/reviews/due?limit=0", { token: me.token }))).toEqual(["/limit"]);
    expect(
      await pointers(await api("/review-settings", { method: "PUT", token: me.token, json: { desiredRetention: 0.5 } })),
    ).toEqual(["/desiredRetention"]);
    // Nothing changed.
    expect((await api(`/review-cards/${card.id}`, { token: me.token })).body).toMatchObject({ reps: 0, front: "der Hund" });
    expectProblem(await api("/reviews/due"), 401, "unauthenticated");
  });
});

describe("POST /review-cards/{id}/reviews – FSRS scheduling", () => {
  test("every review schedules the card exactly as ts-fsrs does for the same grades and times", async () => {
    const me = await registerUser(server);
    const card = await newCard(me);
    const scheduler = fsrs(generatorParameters({ request_retention: 0.9, enable_fuzz: false }));
    let expected: Card = createEmptyCard(new Date(card.createdAt));
    const steps: GradeName[] = ["good", "good", "good", "easy", "again", "good", "hard", "good"];
    for (const grade of steps) {
      setClock(expected.due.getTime() + 5 * MINUTE); // a few minutes after it came due
      const at = new Date(expected.due.getTime() + 5 * MINUTE);
      expected = scheduler.next(expected, at, RATING[grade]).card;
      // reviewedAt pins the instant (the server's clock moves on while the test runs).
      const { card: got, review } = await reviewOnce(me, card.id, { grade, reviewedAt: at.toISOString() });
      expect(review).toMatchObject({ grade, reviewedAt: at.toISOString(), nextDue: expected.due.toISOString() });
      expect(got).toMatchObject({
        due: expected.due.toISOString(),
        reps: expected.reps,
        lapses: expected.lapses,
        scheduledDays: expected.scheduled_days,
        learningSteps: expected.learning_steps,
        lastReview: at.toISOString(),
      });
      expect(got.stability).toBeCloseTo(expected.stability, 6);
      expect(got.difficulty).toBeCloseTo(expected.difficulty, 6);
    }
    const history = expectShape(historyOutput, (await api(`/review-cards/${card.id}/reviews`, { token: me.token })).body);
    expect(history.items.map((item) => item.grade)).toEqual([...steps].reverse());
    expect(history.items.at(-1)).toMatchObject({ stateBefore: "new", elapsedDays: 0 });
  });

  test("intervals grow with good and easy (easy > good > hard) and again resets the card to relearning", async () => {
    const me = await registerUser(server);
    // Four cards taken to the review state the same way, then graded differently at the same moment.
    const cards = [];
    for (const grade of GRADES) cards.push({ grade, card: await newCard(me, { front: grade }) });
    let at = Date.parse(NOW) + MINUTE;
    for (let i = 0; i < 2; i++) {
      setClock(at);
      let due = 0;
      for (const { card } of cards) due = Date.parse((await reviewOnce(me, card.id, { grade: "good" })).card.due);
      at = due + MINUTE;
    }
    setClock(at);
    const graded: Record<
      string,
      { scheduledDays: number; due: string; state: string; lapses: number; lastReview: string | null }
    > = {};
    for (const { grade, card } of cards) graded[grade] = (await reviewOnce(me, card.id, { grade })).card;
    expect(graded.easy!.scheduledDays).toBeGreaterThan(graded.good!.scheduledDays);
    expect(graded.good!.scheduledDays).toBeGreaterThan(graded.hard!.scheduledDays);
    expect(graded.hard!.scheduledDays).toBeGreaterThanOrEqual(1);
    expect(graded.again).toMatchObject({ state: "relearning", lapses: 1, scheduledDays: 0 });
    expect(Date.parse(graded.again!.due) - Date.parse(graded.again!.lastReview!)).toBe(10 * MINUTE);

    // Good again on time: the interval keeps growing.
    let previous = graded.good!.scheduledDays;
    let due = Date.parse(graded.good!.due);
    for (let i = 0; i < 3; i++) {
      setClock(due);
      const next = (await reviewOnce(me, cards[2]!.card.id, { grade: "good" })).card;
      expect(next.scheduledDays).toBeGreaterThan(previous);
      previous = next.scheduledDays;
      due = Date.parse(next.due);
    }
  });

  test("reviewedAt records an earlier review; not before the last one, not in the future", async () => {
    const me = await registerUser(server);
    setClock(Date.parse(NOW) - 2 * DAY);
    const card = await newCard(me);
    setClock(NOW);
    const yesterday = new Date(Date.parse(NOW) - DAY).toISOString();
    const { card: after } = await reviewOnce(me, card.id, { grade: "easy", reviewedAt: yesterday });
    expect(after.lastReview).toBe(yesterday);
    const tooEarly = await api(`/review-cards/${card.id}/reviews`, {
      token: me.token,
      json: { grade: "good", reviewedAt: new Date(Date.parse(NOW) - 2 * DAY).toISOString() },
    });
    expect(expectProblem(tooEarly, 400, "validation_failed").errors?.[0]?.pointer).toBe("/reviewedAt");
    const future = await api(`/review-cards/${card.id}/reviews`, {
      token: me.token,
      json: { grade: "good", reviewedAt: new Date(Date.parse(NOW) + 10 * MINUTE).toISOString() },
    });
    expect(expectProblem(future, 400, "validation_failed").errors?.[0]?.pointer).toBe("/reviewedAt");
    // A minute ahead (a phone's clock) counts as now.
    const { review } = await reviewOnce(me, card.id, {
      grade: "good",
      reviewedAt: new Date(Date.parse(NOW) + MINUTE).toISOString(),
    });
    expect(Date.parse(review.reviewedAt)).toBeLessThanOrEqual(Date.now() + 5 * MINUTE);
    expect(Date.parse(review.reviewedAt)).toBeLessThan(Date.parse(NOW) + MINUTE);
  });

  test("a higher desired retention gives shorter intervals; PUT /review-settings applies from the next review", async () => {
    const careful = await registerUser(server);
    const relaxed = await registerUser(server);
    expect(expectShape(reviewSettingsOutput, (await api("/review-settings", { token: careful.token })).body)).toEqual({
      desiredRetention: 0.9,
      isDefault: true,
    });
    const put = await api("/review-settings", { method: "PUT", token: careful.token, json: { desiredRetention: 0.97 } });
    expect(put.body).toEqual({ desiredRetention: 0.97, isDefault: false });
    expect((await api("/review-settings", { token: careful.token })).body).toEqual({ desiredRetention: 0.97, isDefault: false });
    expect((await api("/review-settings", { method: "PUT", token: relaxed.token, json: { desiredRetention: 0.8 } })).status).toBe(
      200,
    );
    const days = async (user: User) => (await reviewOnce(user, (await newCard(user)).id, { grade: "easy" })).card.scheduledDays;
    const expected = (retention: number) =>
      fsrs(generatorParameters({ request_retention: retention, enable_fuzz: false })).next(
        createEmptyCard(new Date(NOW)),
        new Date(NOW),
        Rating.Easy,
      ).card.scheduled_days;
    const [short, long] = [await days(careful), await days(relaxed)];
    expect(short).toBeLessThan(long);
    expect([short, long]).toEqual([expected(0.97), expected(0.8)]);
  });
});

describe("the due queue and reviews counted once", () => {
  test("GET /reviews/due: the cards due now, the longest due first; a reviewed card leaves and comes back when due", async () => {
    const me = await registerUser(server);
    const other = await registerUser(server);
    const first = await newCard(me, { front: "first" });
    advanceClock(MINUTE);
    const second = await newCard(me, { front: "second" });
    await newCard(other, { front: "Zebra" });
    expect(await dueFronts(me)).toEqual(["first", "second"]);

    const { card } = await reviewOnce(me, second.id, { grade: "easy" });
    expect(await dueFronts(me)).toEqual(["first"]);
    const due = expectShape(dueListOutput, (await api("/reviews/due", { token: me.token })).body);
    expect(due).toMatchObject({ total: 1, items: [{ id: first.id }] });

    // "good" on a new card: back after its 10-minute learning step.
    await reviewOnce(me, first.id, { grade: "good" });
    expect(await dueFronts(me)).toEqual([]);
    advanceClock(10 * MINUTE);
    expect(await dueFronts(me)).toEqual(["first"]);
    setClock(Date.parse(card.due) - 1000);
    expect(await dueFronts(me)).toEqual(["first"]);
    setClock(card.due);
    expect(await dueFronts(me)).toEqual(["first", "second"]);
    expect((await api("/reviews/due?limit=1", { token: me.token })).body).toMatchObject({
      total: 2,
      items: [{ front: "first" }],
    });
  });

  test("the same reviewId twice counts once (200, replayed); on another card it is a 409", async () => {
    const me = await registerUser(server);
    const card = await newCard(me);
    const reviewId = crypto.randomUUID();
    const first = await reviewOnce(me, card.id, { grade: "easy", reviewId });
    expect(first).toMatchObject({ replayed: false, review: { reviewId }, card: { reps: 1 } });
    advanceClock(10 * MINUTE);
    const again = await reviewOnce(me, card.id, { grade: "easy", reviewId }, 200);
    expect(again).toMatchObject({ replayed: true, review: first.review, card: { reps: 1, due: first.card.due } });
    // Sent at once, twice: one review.
    const at = crypto.randomUUID();
    const answers = await Promise.all(
      [1, 2].map(() => api(`/review-cards/${card.id}/reviews`, { token: me.token, json: { grade: "good", reviewId: at } })),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 201]);

    const other = await newCard(me, { front: "other" });
    expectProblem(
      await api(`/review-cards/${other.id}/reviews`, { token: me.token, json: { grade: "good", reviewId } }),
      409,
      "conflict",
    );
    expect((await api(`/review-cards/${other.id}`, { token: me.token })).body.reps).toBe(0);
    const history = expectShape(historyOutput, (await api(`/review-cards/${card.id}/reviews`, { token: me.token })).body);
    expect(history.items.map((item) => item.grade)).toEqual(["good", "easy"]);
  });

  test("without a reviewId, the same grade within 2 seconds is a double submit; later, or another grade, is a review", async () => {
    const me = await registerUser(server);
    const card = await newCard(me);
    await reviewOnce(me, card.id, { grade: "again" });
    advanceClock(1000);
    expect(await reviewOnce(me, card.id, { grade: "again" }, 200)).toMatchObject({ replayed: true, card: { reps: 1 } });
    advanceClock(2000);
    expect(await reviewOnce(me, card.id, { grade: "again" })).toMatchObject({ replayed: false, card: { reps: 2 } });
    expect(await reviewOnce(me, card.id, { grade: "good" })).toMatchObject({ replayed: false, card: { reps: 3 } });
  });
});

describe("the spaced-repetition module switched off", () => {
  test("every route answers 404 module_disabled; the cards are there again when it is back on", async () => {
    const me = await registerUser(server);
    const card = await newCard(me);
    moduleOverrides().set("spaced-repetition", false);
    try {
      const routes: [string, Parameters<typeof api>[1]][] = [
        ["/review-cards", { token: me.token }],
        ["/review-cards", { token: me.token, json: { front: "a", back: "b" } }],
        [`/review-cards/${card.id}`, { token: me.token }],
        [`/review-cards/${card.id}`, { method: "PATCH", token: me.token, json: { front: "x" } }],
        [`/review-cards/${card.id}`, { method: "DELETE", token: me.token }],
        [`/review-cards/${card.id}/reviews`, { token: me.token, json: { grade: "good" } }],
        [`/review-cards/${card.id}/reviews`, { token: me.token }],
        ["/reviews/due", { token: me.token }],
        ["/review-settings", { token: me.token }],
        ["/review-settings", { method: "PUT", token: me.token, json: { desiredRetention: 0.8 } }],
      ];
      for (const [path, options] of routes) {
        expect(expectProblem(await api(path, options), 404, "module_disabled").detail).toMatch(/spaced-repetition/);
      }
      expect((await api("/briefing", { token: me.token })).body).toMatchObject({
        reviews: [],
        reviewsDue: 0,
        reviewsAvailable: false,
      });
    } finally {
      moduleOverrides().delete("spaced-repetition");
    }
    expect((await api(`/review-cards/${card.id}`, { token: me.token })).body).toMatchObject({ id: card.id, reps: 0 });
    expect(await dueFronts(me)).toEqual(["der Hund"]);
  });
});
