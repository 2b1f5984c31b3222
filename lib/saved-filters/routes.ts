import { apiRoute, jsonBody, jsonContent, problemResponse } from "../api/route";
import { createRouter } from "../api/router";
import {
  createSavedFilterInput,
  SAVED_FILTERS_MAX,
  savedFilterIdParams,
  savedFilterListOutput,
  savedFilterOutput,
  updateSavedFilterInput,
} from "./schema";
import { createSavedFilter, deleteSavedFilter, listSavedFilters, updateSavedFilter } from "./service";

const TAGS = ["Saved filters"];
const ABOUT =
  "A saved filter is a name for a view of your task list: the list page's query string (status, group, assignee, " +
  `due dates, tag, words, order, or the Today and Upcoming views). They are yours alone; you keep at most ${SAVED_FILTERS_MAX}.`;

const listRoute = apiRoute({
  method: "get",
  path: "/saved-filters",
  tags: TAGS,
  summary: "Your saved filters",
  description: `${ABOUT} Lists them in the order they were saved.`,
  access: "user",
  responses: { 200: jsonContent(savedFilterListOutput, "Your saved filters") },
});

const createRoute = apiRoute({
  method: "post",
  path: "/saved-filters",
  tags: TAGS,
  summary: "Save a filter",
  description: `${ABOUT} The query is checked as the list reads it: an unknown or bad filter is 400 naming \`query\`.`,
  access: "user",
  request: { body: jsonBody(createSavedFilterInput) },
  responses: {
    201: jsonContent(savedFilterOutput, "The saved filter"),
    409: problemResponse(`You keep ${SAVED_FILTERS_MAX} saved filters already: the problem's detail names the limit`),
  },
});

const updateRoute = apiRoute({
  method: "patch",
  path: "/saved-filters/{id}",
  tags: TAGS,
  summary: "Rename a saved filter or change its query",
  description: ABOUT,
  access: "user",
  request: { params: savedFilterIdParams, body: jsonBody(updateSavedFilterInput) },
  responses: {
    200: jsonContent(savedFilterOutput, "The changed filter"),
    404: problemResponse("No saved filter of yours has this id"),
  },
});

const deleteRoute = apiRoute({
  method: "delete",
  path: "/saved-filters/{id}",
  tags: TAGS,
  summary: "Delete a saved filter",
  description: ABOUT,
  access: "user",
  request: { params: savedFilterIdParams },
  responses: { 204: { description: "Deleted" }, 404: problemResponse("No saved filter of yours has this id") },
});

export const savedFiltersRoutes = createRouter()
  .openapi(listRoute, async (c) => c.json(await listSavedFilters(c.var.actor), 200))
  .openapi(createRoute, async (c) => c.json(await createSavedFilter(c.var.actor, c.req.valid("json")), 201))
  .openapi(updateRoute, async (c) =>
    c.json(await updateSavedFilter(c.var.actor, c.req.valid("param").id, c.req.valid("json")), 200),
  )
  .openapi(deleteRoute, async (c) => {
    await deleteSavedFilter(c.var.actor, c.req.valid("param").id);
    return c.body(null, 204);
  });
