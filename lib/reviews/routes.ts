import { apiRoute, jsonBody, jsonContent, problemResponse } from "../api/route";
import { createRouter } from "../api/router";
import {
  cardIdParams,
  cardListOutput,
  cardOutput,
  createCardInput,
  dueListOutput,
  dueQuery,
  historyOutput,
  historyQuery,
  listCardsQuery,
  reviewInput,
  reviewOutput,
  reviewSettingsInput,
  reviewSettingsOutput,
  updateCardInput,
} from "./schema";
import {
  createCard,
  deleteCard,
  getCard,
  getReviewSettings,
  listCards,
  listDue,
  reviewCard,
  reviewHistory,
  updateCard,
  updateReviewSettings,
} from "./service";

// Spaced repetition lives under /api/v1 only (no root alias).
const TAGS = ["Spaced repetition"];
const MODULE = "spaced-repetition";
const ABOUT =
  "Cards are private: only their owner sees them, and to anyone else every `/review-cards/{id}` route answers 404. " +
  "A card may link one of your goals (`goalId`) and a task you can see (`taskId`); a goal or task you cannot see is " +
  "a 404 naming the field. A task later unshared from you stays linked but shows as `task: null`; a deleted goal or " +
  "task unlinks itself.";
const NOT_FOUND = "No such card, or not yours (both answer the same)";
const SCHEDULING =
  "Reviews are scheduled with FSRS (the ts-fsrs package, its default weights and its learning steps of 1 and 10 " +
  "minutes, relearning step 10 minutes, without fuzz so the same review always gives the same due time) for your " +
  "desired retention (`/review-settings`, 0.9 by default): `again` sends a card back to a 10-minute relearning step " +
  "(a lapse once it is in review), `hard`, `good` and `easy` lengthen its interval, `easy` the most.";

const listRoute = apiRoute({
  method: "get",
  path: "/review-cards",
  tags: TAGS,
  module: MODULE,
  summary: "Your review cards",
  description: `${ABOUT} Newest first, a page at a time (\`nextCursor\`); filter by \`due\`, \`goalId\`, \`taskId\` and \`deck\`.`,
  access: "user",
  request: { query: listCardsQuery },
  responses: { 200: jsonContent(cardListOutput, "Your cards") },
});

const createRoute = apiRoute({
  method: "post",
  path: "/review-cards",
  tags: TAGS,
  module: MODULE,
  summary: "Create a review card",
  description: `${ABOUT} A new card is due at once (state \`new\`). At most 10,000 cards per user (409 beyond).`,
  access: "user",
  request: { body: jsonBody(createCardInput) },
  responses: {
    201: jsonContent(cardOutput, "The new card"),
    404: problemResponse("`goalId` or `taskId` names a goal or task you cannot see"),
    409: problemResponse("You have 10,000 cards already"),
  },
});

const getRoute = apiRoute({
  method: "get",
  path: "/review-cards/{id}",
  tags: TAGS,
  module: MODULE,
  summary: "One of your review cards",
  description: `${ABOUT} With its FSRS state: when it is due, stability, difficulty, reviews and lapses.`,
  access: "user",
  request: { params: cardIdParams },
  responses: { 200: jsonContent(cardOutput, "The card"), 404: problemResponse(NOT_FOUND) },
});

const updateRoute = apiRoute({
  method: "patch",
  path: "/review-cards/{id}",
  tags: TAGS,
  module: MODULE,
  summary: "Edit a review card",
  description:
    "The fields given change, the others stay; give at least one. `null` removes the deck or a link. Editing does " +
    "not change the card's schedule.",
  access: "user",
  request: { params: cardIdParams, body: jsonBody(updateCardInput) },
  responses: {
    200: jsonContent(cardOutput, "The updated card"),
    404: problemResponse(`${NOT_FOUND}; or \`goalId\` or \`taskId\` names a goal or task you cannot see`),
  },
});

const deleteRoute = apiRoute({
  method: "delete",
  path: "/review-cards/{id}",
  tags: TAGS,
  module: MODULE,
  summary: "Delete a review card",
  description: "Its review history goes with it; a linked goal or task stays.",
  access: "user",
  request: { params: cardIdParams },
  responses: { 204: { description: "Deleted" }, 404: problemResponse(NOT_FOUND) },
});

const reviewRoute = apiRoute({
  method: "post",
  path: "/review-cards/{id}/reviews",
  tags: TAGS,
  module: MODULE,
  summary: "Review a card",
  description:
    `${SCHEDULING} A card may be reviewed before it is due (FSRS then lengthens the interval less). \`reviewedAt\` ` +
    "records a review made earlier (offline): not before the card's last review (or its creation), and not more " +
    "than 5 minutes ahead of the server's clock (a time up to that counts as now); both are 400s naming it. " +
    "**Counted once:** send a `reviewId` (a UUID your client makes per review); the same `reviewId` again answers " +
    "the review it made with 200 and `replayed: true`, changing nothing (for another card it is a 409). Without " +
    "one, the same grade for the same card within 2 seconds of its last review is taken for a double submit and " +
    "answered the same way.",
  access: "user",
  request: { params: cardIdParams, body: jsonBody(reviewInput) },
  responses: {
    201: jsonContent(reviewOutput, "The review was recorded and the card rescheduled"),
    200: jsonContent(reviewOutput, "The same review was recorded before: nothing changed (`replayed: true`)"),
    404: problemResponse(NOT_FOUND),
    409: problemResponse("The `reviewId` was used for a review of another card"),
  },
});

const historyRoute = apiRoute({
  method: "get",
  path: "/review-cards/{id}/reviews",
  tags: TAGS,
  module: MODULE,
  summary: "A card's review history",
  description: "Newest first: each review's grade, time, the card's state before it and the due time it gave.",
  access: "user",
  request: { params: cardIdParams, query: historyQuery },
  responses: { 200: jsonContent(historyOutput, "The reviews"), 404: problemResponse(NOT_FOUND) },
});

const dueRoute = apiRoute({
  method: "get",
  path: "/reviews/due",
  tags: TAGS,
  module: MODULE,
  summary: "The cards due for review now",
  description:
    "Your cards whose due time has come (by the server's clock), the longest due first (then the oldest card), up " +
    "to `limit`, and how many are due in all. A card reviewed `again`, `hard` or `good` while learning comes back " +
    "here minutes later. " +
    SCHEDULING,
  access: "user",
  request: { query: dueQuery },
  responses: { 200: jsonContent(dueListOutput, "The due queue") },
});

const getSettingsRoute = apiRoute({
  method: "get",
  path: "/review-settings",
  tags: TAGS,
  module: MODULE,
  summary: "Your spaced-repetition settings",
  description: "The desired retention FSRS schedules your reviews for: 0.9 (FSRS's default) until you choose one.",
  access: "user",
  responses: { 200: jsonContent(reviewSettingsOutput, "Your settings") },
});

const putSettingsRoute = apiRoute({
  method: "put",
  path: "/review-settings",
  tags: TAGS,
  module: MODULE,
  summary: "Choose your desired retention",
  description:
    "0.7 to 0.99: the probability of still recalling a card when it comes due. It applies from the next review on; " +
    "cards keep the due times they have.",
  access: "user",
  request: { body: jsonBody(reviewSettingsInput) },
  responses: { 200: jsonContent(reviewSettingsOutput, "Your settings") },
});

export const reviewsRoutes = createRouter()
  .openapi(listRoute, async (c) => c.json(await listCards(c.var.actor, c.req.valid("query")), 200))
  .openapi(createRoute, async (c) => c.json(await createCard(c.var.actor, c.req.valid("json")), 201))
  .openapi(getRoute, async (c) => c.json(await getCard(c.var.actor, c.req.valid("param").id), 200))
  .openapi(updateRoute, async (c) => c.json(await updateCard(c.var.actor, c.req.valid("param").id, c.req.valid("json")), 200))
  .openapi(deleteRoute, async (c) => {
    await deleteCard(c.var.actor, c.req.valid("param").id);
    return c.body(null, 204);
  })
  .openapi(reviewRoute, async (c) => {
    const { result, created } = await reviewCard(c.var.actor, c.req.valid("param").id, c.req.valid("json"));
    return created ? c.json(result, 201) : c.json(result, 200);
  })
  .openapi(historyRoute, async (c) =>
    c.json(await reviewHistory(c.var.actor, c.req.valid("param").id, c.req.valid("query")), 200),
  )
  .openapi(dueRoute, async (c) => c.json(await listDue(c.var.actor, c.req.valid("query")), 200))
  .openapi(getSettingsRoute, async (c) => c.json(await getReviewSettings(c.var.actor), 200))
  .openapi(putSettingsRoute, async (c) => c.json(await updateReviewSettings(c.var.actor, c.req.valid("json")), 200));
