import { apiRoute, jsonBody, jsonContent, problemResponse } from "../api/route";
import { createRouter } from "../api/router";
import {
  BOARD_COLUMNS_MAX,
  boardColumnListOutput,
  boardColumnOutput,
  boardColumnParams,
  createBoardColumnInput,
  deleteBoardColumnQuery,
  scopeIdParams,
  updateBoardColumnInput,
} from "./schema";
import { createBoardColumn, deleteBoardColumn, listBoardColumns, updateBoardColumn, type BoardScope } from "./service";

const TAGS = ["Board"];
const ABOUT =
  "A project's or team's board shows one column per status until it has columns of its own: named, ordered, each " +
  "mapped to a status (a card dropped in it takes that status). Adding the first column also writes the four status " +
  "columns (`name` null: called after their status), and from then on every status keeps at least one column. Where " +
  "a status has several columns, each card is in one of them (`POST /tasks/{id}/move` with `columnId`); a card never " +
  "put in one is in the status's first column. Members see the columns; owners and admins change them. `GET /board` " +
  "with the `projectId` (or `userGroupId`) shows them.";
const FORBIDDEN = "You are a member: only the owners and admins change the board's columns";
const LAST_OF_STATUS = "The column is the board's last of its status (the problem's detail names it)";

/** The routes of one kind of scope: `/projects/{id}/board-columns` or `/user-groups/{id}/board-columns`. */
function scopeRoutes(kind: BoardScope["kind"]) {
  const base = kind === "project" ? "/projects/{id}/board-columns" : "/user-groups/{id}/board-columns";
  const noScope = problemResponse(
    kind === "project"
      ? "No such project, or you are not one of its members (both answer the same)"
      : "No such group, or you are not one of its members (both answer the same)",
  );
  const owner = kind === "project" ? "project" : "team";
  const module = kind === "project" ? ("projects" as const) : undefined;
  const scope = (id: string): BoardScope => ({ kind, id });
  const tags = TAGS;

  const list = apiRoute({
    method: "get",
    path: base,
    tags,
    summary: `A ${owner}'s board columns`,
    description: `${ABOUT} Without columns of its own (\`custom: false\`) the list is the four status columns, \`id\` null.`,
    access: "user",
    ...(module ? { module } : {}),
    request: { params: scopeIdParams },
    responses: { 200: jsonContent(boardColumnListOutput, "The columns in board order"), 404: noScope },
  });

  const create = apiRoute({
    method: "post",
    path: base,
    tags,
    summary: `Add a column to a ${owner}'s board`,
    description: `${ABOUT} At most ${BOARD_COLUMNS_MAX} columns (409 beyond).`,
    access: "user",
    ...(module ? { module } : {}),
    request: { params: scopeIdParams, body: jsonBody(createBoardColumnInput) },
    responses: {
      201: jsonContent(boardColumnOutput, "The new column"),
      403: problemResponse(FORBIDDEN),
      404: noScope,
      409: problemResponse(`The board has ${BOARD_COLUMNS_MAX} columns already`),
    },
  });

  const update = apiRoute({
    method: "patch",
    path: `${base}/{columnId}`,
    tags,
    summary: "Rename, re-map or move a column",
    description:
      `${ABOUT} Send only what changes: \`name\` (null: called after its status), \`status\`, and one of \`position\` ` +
      "(0-based), `beforeId` or `afterId` (another column). Cards placed in a column that is mapped to another status " +
      "stay with their own status: they show in that status's first column.",
    access: "user",
    ...(module ? { module } : {}),
    request: { params: boardColumnParams, body: jsonBody(updateBoardColumnInput) },
    responses: {
      200: jsonContent(boardColumnOutput, "The changed column"),
      403: problemResponse(FORBIDDEN),
      404: problemResponse("No such project, team or column, or not one of yours"),
      409: problemResponse(LAST_OF_STATUS),
    },
  });

  const remove = apiRoute({
    method: "delete",
    path: `${base}/{columnId}`,
    tags,
    summary: "Delete a column; its cards move to another of the same status",
    description:
      `${ABOUT} Its cards go to \`moveTo\` (another column of the same status) or else to the first other column of ` +
      "its status. The last column of a status cannot be deleted (409).",
    access: "user",
    ...(module ? { module } : {}),
    request: { params: boardColumnParams, query: deleteBoardColumnQuery },
    responses: {
      204: { description: "Deleted" },
      403: problemResponse(FORBIDDEN),
      404: problemResponse("No such project, team or column, or not one of yours"),
      409: problemResponse(LAST_OF_STATUS),
    },
  });

  return createRouter()
    .openapi(list, async (c) => c.json(await listBoardColumns(c.var.actor, scope(c.req.valid("param").id)), 200))
    .openapi(create, async (c) =>
      c.json(await createBoardColumn(c.var.actor, scope(c.req.valid("param").id), c.req.valid("json")), 201),
    )
    .openapi(update, async (c) => {
      const { id, columnId } = c.req.valid("param");
      return c.json(await updateBoardColumn(c.var.actor, scope(id), columnId, c.req.valid("json")), 200);
    })
    .openapi(remove, async (c) => {
      const { id, columnId } = c.req.valid("param");
      await deleteBoardColumn(c.var.actor, scope(id), columnId, c.req.valid("query").moveTo);
      return c.body(null, 204);
    });
}

export const projectBoardColumnsRoutes = scopeRoutes("project");
export const teamBoardColumnsRoutes = scopeRoutes("team");
