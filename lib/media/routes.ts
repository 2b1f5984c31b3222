import { Readable } from "node:stream";
import { z } from "@hono/zod-openapi";
import { apiRoute, jsonBody, jsonContent, problemResponse } from "../api/route";
import { createRouter } from "../api/router";
import { contentDisposition } from "./filename";
import { mediaIdParams, mediaItemOutput, mediaListOutput, taskMediaParams, uploadMediaInput } from "./schema";
import { deleteMedia, getMedia, getMediaContent, listMedia, MAX_ITEMS_PER_TASK, uploadBodyLimit, uploadMedia } from "./service";

const TAGS = ["Media"];
const MODULE = "media";
const WHO = "Whoever can read the task sees its media and downloads them; anyone else gets 404, as for the task itself.";
const ITEM_NOT_FOUND = "No such media item, or its task is not one you can see (both answer the same)";

const uploadRoute = apiRoute({
  method: "post",
  path: "/tasks/{id}/media",
  tags: TAGS,
  summary: "Attach a file to a task",
  description:
    "A text, audio, photo or video file as JSON with its bytes in standard base64 (`data`). Whoever may edit the task " +
    "uploads (its owner, assignees, collaborators, project members and family; a team member or project viewer who " +
    `only reads it gets 403). At most ${MAX_ITEMS_PER_TASK} items per task (409). The largest file of each kind is ` +
    "MEDIA_MAX_TEXT_BYTES, _AUDIO_, _PHOTO_ and _VIDEO_BYTES (1 MiB, 20 MiB, 10 MiB and 50 MiB by default), counted " +
    "in decoded bytes: a larger one is a 413 naming `/data`; this route's body limit is the base64 of the largest kind. " +
    "What the file is comes from its bytes (magic numbers), never from the filename or `contentType`: photos JPEG, " +
    "PNG, GIF, WebP, HEIC or AVIF; audio MP3, Ogg, WAV, FLAC, M4A, or WebM/MP4/3GP holding sound; video MP4, " +
    "QuickTime, WebM/Matroska, Ogg, AVI or 3GP; text valid UTF-8 without NUL. Bytes of none of these are a 415 naming " +
    "`/data`; bytes of another kind than `kind` a 415 naming `/kind`. Not-base64 `data` and a path-like `filename` " +
    "are 400s. A refused upload stores nothing. Audio and video are transcribed in the background when the server " +
    "has an AI endpoint (`transcription.status` `pending`, then `done` or `failed`; poll `GET /media/{id}`); " +
    "without one the status is `unavailable`.",
  access: "user",
  module: MODULE,
  bodyLimit: uploadBodyLimit,
  request: { params: taskMediaParams, body: jsonBody(uploadMediaInput) },
  responses: {
    201: jsonContent(mediaItemOutput, "The stored item"),
    403: problemResponse("You can read the task but not change it"),
    404: problemResponse("No such task, or not one you can see"),
    409: problemResponse(`The task has ${MAX_ITEMS_PER_TASK} media items already`),
    413: problemResponse("The file (`/data`) is larger than its kind allows, or the body larger than the route's limit"),
    415: problemResponse(
      "The bytes are none of the accepted formats (`/data`) or not of the declared kind (`/kind`); or the body is not JSON",
    ),
  },
});

const listRoute = apiRoute({
  method: "get",
  path: "/tasks/{id}/media",
  tags: TAGS,
  summary: "A task's media",
  description: `${WHO} Oldest first, with each item's transcription state.`,
  access: "user",
  module: MODULE,
  request: { params: taskMediaParams },
  responses: {
    200: jsonContent(mediaListOutput, "The task's media"),
    404: problemResponse("No such task, or not one you can see"),
  },
});

const getRoute = apiRoute({
  method: "get",
  path: "/media/{id}",
  tags: TAGS,
  summary: "One media item",
  description: `${WHO} The item's details and transcription (no bytes: see \`contentUrl\`).`,
  access: "user",
  module: MODULE,
  request: { params: mediaIdParams },
  responses: { 200: jsonContent(mediaItemOutput, "The item"), 404: problemResponse(ITEM_NOT_FOUND) },
});

const contentRoute = apiRoute({
  method: "get",
  path: "/media/{id}/content",
  tags: TAGS,
  summary: "Download a media item",
  description:
    `${WHO} The bytes, streamed, with the sniffed Content-Type and Content-Length. Always a download ` +
    "(`Content-Disposition: attachment` with the filename, ASCII in `filename` and exact in `filename*`), never shown " +
    "inline by the API, and with `X-Content-Type-Options: nosniff`; pages show photos from a copy they fetched. No " +
    "Range requests: the whole file each time.",
  access: "user",
  module: MODULE,
  request: { params: mediaIdParams },
  responses: {
    200: {
      description: "The file",
      headers: {
        "Content-Disposition": { description: "attachment; filename=\"...\"; filename*=UTF-8''...", schema: { type: "string" } },
        "Content-Length": { description: "The file's size in bytes", schema: { type: "integer" } },
      },
      content: {
        "application/octet-stream": {
          schema: z.string().openapi({ format: "binary", description: "The file (its real type in Content-Type)" }),
        },
      },
    },
    404: problemResponse(ITEM_NOT_FOUND),
    410: problemResponse("The item's file is missing from the storage"),
  },
});

const deleteRoute = apiRoute({
  method: "delete",
  path: "/media/{id}",
  tags: TAGS,
  summary: "Delete a media item",
  description:
    "The uploader or the task's owner deletes an item (anyone else who sees the task gets 403); its file is removed " +
    "from the storage. Deleting the task, or the account of its owner or uploader, removes its media files too.",
  access: "user",
  module: MODULE,
  request: { params: mediaIdParams },
  responses: {
    204: { description: "Deleted, file and all" },
    403: problemResponse("Neither the uploader nor the task's owner"),
    404: problemResponse(ITEM_NOT_FOUND),
  },
});

export const mediaRoutes = createRouter()
  .openapi(uploadRoute, async (c) => c.json(await uploadMedia(c.var.actor, c.req.valid("param").id, c.req.valid("json")), 201))
  .openapi(listRoute, async (c) => c.json(await listMedia(c.var.actor, c.req.valid("param").id), 200))
  .openapi(getRoute, async (c) => c.json(await getMedia(c.var.actor, c.req.valid("param").id), 200))
  .openapi(contentRoute, async (c) => {
    const { item, stream, size } = await getMediaContent(c.var.actor, c.req.valid("param").id);
    return c.body(Readable.toWeb(stream) as ReadableStream, 200, {
      "Content-Type": item.contentType,
      "Content-Length": String(size),
      "Content-Disposition": contentDisposition(item.filename),
      "Cache-Control": "private, no-cache",
    });
  })
  .openapi(deleteRoute, async (c) => {
    await deleteMedia(c.var.actor, c.req.valid("param").id);
    return c.body(null, 204);
  });
