import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { mediaItemOutput, mediaListOutput } from "../../lib/media/schema";
import { mediaRoot } from "../../lib/media/storage";
import { transcriptionsSettled } from "../../lib/media/transcription";
import { moduleOverrides } from "../../lib/modules/registry";
import {
  addMember as joinAs,
  createTask,
  expectProblem,
  expectShape,
  registerUser,
  startTestServer,
  type RequestOptions,
  type TestServer,
} from "./harness";
import { EXE, JPEG, MP4, PNG, SVG, wav } from "./media-samples";
import { startTranscriptionServer, type TranscriptionServer } from "./transcription-server";

type User = Awaited<ReturnType<typeof registerUser>>;

// Small limits, so that the oversized cases stay cheap: the global body limit is below the media route's own.
const LIMITS = {
  BODY_LIMIT_BYTES: String(16 * 1024),
  MEDIA_MAX_TEXT_BYTES: String(4 * 1024),
  MEDIA_MAX_AUDIO_BYTES: String(64 * 1024),
  MEDIA_MAX_PHOTO_BYTES: String(8 * 1024),
  MEDIA_MAX_VIDEO_BYTES: String(128 * 1024),
};

let server: TestServer;
const api = (requestPath: string, options?: RequestOptions) => server.request(`/api/v1${requestPath}`, options);
const b64 = (bytes: Buffer | string) => Buffer.from(bytes).toString("base64");

function upload(user: User, taskId: string, json: Record<string, unknown>) {
  return api(`/tasks/${taskId}/media`, { token: user.token, json });
}

async function uploaded(user: User, taskId: string, json: Record<string, unknown>) {
  const response = await upload(user, taskId, json);
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return expectShape(mediaItemOutput, response.body);
}

/** Every file under the media directory, temporary ones included. */
function filesOnDisk(): string[] {
  const root = mediaRoot();
  if (!existsSync(root)) return [];
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name));
}

async function rowCount(): Promise<number> {
  return (await server.sql<{ n: number }>("select count(*)::int as n from media_items"))[0]!.n;
}

async function storedFile(id: string): Promise<string> {
  const [row] = await server.sql<{ storage_key: string }>("select storage_key from media_items where id = $1", [id]);
  return path.join(mediaRoot(), row!.storage_key.slice(0, 2), row!.storage_key);
}

/** Polls an item until its transcription is no longer pending. */
async function settled(user: User, id: string) {
  await transcriptionsSettled();
  for (let attempt = 0; attempt < 100; attempt++) {
    const item = expectShape(mediaItemOutput, (await api(`/media/${id}`, { token: user.token })).body);
    if (item.transcription.status !== "pending") return item;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error("the transcription stayed pending");
}

describe("media without an AI endpoint", () => {
  beforeAll(async () => {
    server = await startTestServer(LIMITS);
  });
  afterAll(() => server.close());

  test("POST /tasks/{id}/media – stores a photo under a generated id; list, details and download give it back", async () => {
    const owner = await registerUser(server);
    const task = await createTask(server, owner.token);
    const item = await uploaded(owner, task.id, {
      kind: "photo",
      filename: " Receipt.png ",
      contentType: "text/html",
      data: b64(PNG),
    });
    // The type comes from the bytes, not from the declared contentType; the name is trimmed.
    expect(item).toMatchObject({
      taskId: task.id,
      uploaderId: owner.user.id,
      kind: "photo",
      filename: "Receipt.png",
      contentType: "image/png",
      sizeBytes: PNG.length,
      transcription: { status: "none", text: null, message: null, transcribedAt: null },
      contentUrl: `/api/v1/media/${item.id}/content`,
    });
    // On disk under a generated key, never the user's name.
    const file = await storedFile(item.id);
    expect(existsSync(file)).toBe(true);
    expect(path.basename(file)).toMatch(/^[0-9a-f-]{36}$/);
    expect(filesOnDisk().some((name) => name.includes("Receipt"))).toBe(false);

    const list = expectShape(mediaListOutput, (await api(`/tasks/${task.id}/media`, { token: owner.token })).body);
    expect(list.items.map((listed) => listed.id)).toEqual([item.id]);
    // The root alias of /tasks answers too.
    expect((await server.request(`/tasks/${task.id}/media`, { token: owner.token })).body).toEqual(list);
    expect((await api(`/media/${item.id}`, { token: owner.token })).body).toEqual(item);

    const download = await fetch(`${server.url}${item.contentUrl}`, { headers: { Authorization: `Bearer ${owner.token}` } });
    expect(download.status).toBe(200);
    expect(download.headers.get("content-type")).toBe("image/png");
    expect(download.headers.get("content-length")).toBe(String(PNG.length));
    expect(download.headers.get("content-disposition")).toBe(`attachment; filename="Receipt.png"; filename*=UTF-8''Receipt.png`);
    expect(download.headers.get("x-content-type-options")).toBe("nosniff");
    expect(Buffer.from(await download.arrayBuffer()).equals(PNG)).toBe(true);
  });

  test("GET /media/{id}/content – a name beyond ASCII gets an ASCII stand-in and the exact name in filename*", async () => {
    const owner = await registerUser(server);
    const task = await createTask(server, owner.token);
    const item = await uploaded(owner, task.id, { kind: "text", filename: 'Účet "květen".txt', data: b64("Nájem: 12 000 Kč\n") });
    expect(item.contentType).toBe("text/plain; charset=utf-8");
    const download = await fetch(`${server.url}${item.contentUrl}`, { headers: { Authorization: `Bearer ${owner.token}` } });
    expect(download.headers.get("content-disposition")).toBe(
      `attachment; filename="__et _kv_ten_.txt"; filename*=UTF-8''%C3%9A%C4%8Det%20%22kv%C4%9Bten%22.txt`,
    );
    expect(await download.text()).toBe("Nájem: 12 000 Kč\n");
  });

  test("POST /tasks/{id}/media – each kind is checked against the bytes; audio and video are marked unavailable without an AI endpoint", async () => {
    const owner = await registerUser(server);
    const task = await createTask(server, owner.token);
    const audio = await uploaded(owner, task.id, { kind: "audio", filename: "memo.wav", data: b64(wav()) });
    expect(audio).toMatchObject({ contentType: "audio/wav", transcription: { status: "unavailable", text: null } });
    expect(audio.transcription.message).toMatch(/AI endpoint/);
    const video = await uploaded(owner, task.id, { kind: "video", filename: "clip.mp4", data: b64(MP4) });
    expect(video).toMatchObject({ contentType: "video/mp4", transcription: { status: "unavailable" } });
    const jpeg = await uploaded(owner, task.id, { kind: "photo", filename: "photo.jpg", data: b64(JPEG) });
    expect(jpeg).toMatchObject({ contentType: "image/jpeg", transcription: { status: "none" } });
    const text = await uploaded(owner, task.id, { kind: "text", filename: "note.txt", data: b64("Buy milk") });
    expect(text).toMatchObject({ contentType: "text/plain; charset=utf-8", transcription: { status: "none", text: null } });
  });

  test("POST /tasks/{id}/media – refused uploads answer 4xx naming the field and leave nothing on disk or in the database", async () => {
    const owner = await registerUser(server);
    const stranger = await registerUser(server);
    const task = await createTask(server, owner.token);
    await uploaded(owner, task.id, { kind: "text", filename: "first.txt", data: b64("first") });
    const files = filesOnDisk();
    const rows = await rowCount();
    const photo = { kind: "photo", filename: "photo.png", data: b64(PNG) };

    const cases: {
      json: Record<string, unknown>;
      taskId?: string;
      user?: User;
      status: number;
      code: string;
      pointer?: string;
    }[] = [
      // Oversized: decoded bytes beyond MEDIA_MAX_PHOTO_BYTES (8 KiB), with a valid PNG start.
      {
        json: { ...photo, data: b64(Buffer.concat([PNG, Buffer.alloc(9 * 1024)])) },
        status: 413,
        code: "payload_too_large",
        pointer: "/data",
      },
      {
        json: { kind: "text", filename: "long.txt", data: b64("x".repeat(4 * 1024 + 1)) },
        status: 413,
        code: "payload_too_large",
        pointer: "/data",
      },
      // Wrong magic bytes: none of the formats, or another kind than declared.
      { json: { ...photo, data: b64(EXE) }, status: 415, code: "unsupported_media_type", pointer: "/data" },
      {
        json: { ...photo, filename: "image.png", data: b64(SVG) },
        status: 415,
        code: "unsupported_media_type",
        pointer: "/kind",
      },
      { json: { ...photo, kind: "audio" }, status: 415, code: "unsupported_media_type", pointer: "/kind" },
      {
        json: { kind: "text", filename: "a.txt", data: b64(PNG) },
        status: 415,
        code: "unsupported_media_type",
        pointer: "/kind",
      },
      {
        json: { kind: "text", filename: "nul.txt", data: b64("a\u0000b") },
        status: 415,
        code: "unsupported_media_type",
        pointer: "/data",
      },
      // Bad base64.
      { json: { ...photo, data: "not base64!" }, status: 400, code: "validation_failed", pointer: "/data" },
      {
        json: { ...photo, data: `${b64(PNG).slice(0, 20)}\n${b64(PNG).slice(20)}` },
        status: 400,
        code: "validation_failed",
        pointer: "/data",
      },
      { json: { ...photo, data: `data:image/png;base64,${b64(PNG)}` }, status: 400, code: "validation_failed", pointer: "/data" },
      { json: { ...photo, data: b64(PNG).slice(0, -1) }, status: 400, code: "validation_failed", pointer: "/data" },
      { json: { ...photo, data: "" }, status: 400, code: "validation_failed", pointer: "/data" },
      // Path-like or otherwise unusable filenames.
      // A right-to-left override or isolate would show "photo\u202Egnp.exe" as "photoexe.png": the extension disguised.
      ...[
        "../x",
        "../../etc/passwd",
        "a/b",
        "C:\\x",
        "C:x.png",
        "a\\b",
        "nul\u0000.png",
        "bell\u0007.png",
        "..",
        "  ",
        "photo\u202Egnp.exe",
        "photo\u2067gnp.exe\u2069",
      ].map((filename) => ({
        json: { ...photo, filename },
        status: 400,
        code: "validation_failed",
        pointer: "/filename",
      })),
      // Unknown fields and kinds.
      { json: { ...photo, kind: "document" }, status: 400, code: "validation_failed", pointer: "/kind" },
      { json: { ...photo, path: "/tmp/x" }, status: 400, code: "validation_failed", pointer: "/path" },
      // No such task, or another user's: 404 alike.
      { json: photo, taskId: "00000000-0000-4000-8000-000000000000", status: 404, code: "not_found" },
      { json: photo, user: stranger, status: 404, code: "not_found" },
    ];
    for (const { json, taskId = task.id, user = owner, status, code, pointer } of cases) {
      const response = await upload(user, taskId, json);
      const problem = expectProblem(response, status, code);
      if (pointer)
        expect(
          problem.errors?.map((error) => error.pointer),
          JSON.stringify(json).slice(0, 120),
        ).toContain(pointer);
      expect(filesOnDisk(), JSON.stringify(json).slice(0, 120)).toEqual(files);
      expect(await rowCount()).toBe(rows);
    }
  });

  test("POST /tasks/{id}/media – the route takes a body above BODY_LIMIT_BYTES up to its own limit; other routes keep theirs", async () => {
    const owner = await registerUser(server);
    const task = await createTask(server, owner.token);
    // 100 KiB of video: 133 KiB of base64, far above the global 16 KiB.
    const video = Buffer.concat([MP4, Buffer.alloc(100 * 1024 - MP4.length)]);
    const item = await uploaded(owner, task.id, { kind: "video", filename: "clip.mp4", data: b64(video) });
    expect(item.sizeBytes).toBe(100 * 1024);
    // Another route with a 20 KiB body: still 413.
    const big = await server.request("/tasks", {
      token: owner.token,
      json: { title: "Big", description: "x".repeat(20 * 1024) },
    });
    expectProblem(big, 413, "payload_too_large");
    // Beyond the media route's own limit (the base64 of 128 KiB plus 64 KiB): 413 before the body is read.
    const files = filesOnDisk();
    const huge = await upload(owner, task.id, { kind: "video", filename: "huge.mp4", data: "A".repeat(260 * 1024) });
    expectProblem(huge, 413, "payload_too_large");
    // The unread rest of the body ends the connection: a client must not send its next request on it.
    expect(huge.headers.get("connection")).toBe("close");
    expect(filesOnDisk()).toEqual(files);
  });

  test("GET /media/{id} and /content, DELETE /media/{id} – 404 for someone who cannot see the task", async () => {
    const owner = await registerUser(server);
    const stranger = await registerUser(server);
    const task = await createTask(server, owner.token);
    const item = await uploaded(owner, task.id, { kind: "text", filename: "secret.txt", data: b64("secret") });
    for (const [method, requestPath] of [
      ["GET", `/media/${item.id}`],
      ["GET", `/media/${item.id}/content`],
      ["DELETE", `/media/${item.id}`],
      ["GET", `/tasks/${task.id}/media`],
    ] as const) {
      const response = await api(requestPath, { method, token: stranger.token });
      expectProblem(response, 404, "not_found");
      expect(JSON.stringify(response.body)).not.toContain("secret.txt");
    }
    expect(existsSync(await storedFile(item.id))).toBe(true);
  });

  test("POST /tasks/{id}/media – whoever may edit the task uploads; a project viewer reads and downloads but gets 403 uploading", async () => {
    const owner = await registerUser(server);
    const viewer = await registerUser(server);
    const assignee = await registerUser(server);
    const project = await api("/projects", { token: owner.token, json: { name: "Renovation" } });
    expect(project.status).toBe(201);
    expect((await joinAs(server, `/api/v1/projects/${project.body.id}/members`, owner, viewer, { role: "viewer" })).status).toBe(
      201,
    );
    const task = await createTask(server, owner.token, { projectId: project.body.id });
    const item = await uploaded(owner, task.id, { kind: "photo", filename: "wall.png", data: b64(PNG) });

    expect(
      (await api(`/tasks/${task.id}/media`, { token: viewer.token })).body.items.map((listed: { id: string }) => listed.id),
    ).toEqual([item.id]);
    expect((await api(`/media/${item.id}/content`, { token: viewer.token })).status).toBe(200);
    const files = filesOnDisk();
    expectProblem(await upload(viewer, task.id, { kind: "photo", filename: "mine.png", data: b64(PNG) }), 403, "forbidden");
    expect(filesOnDisk()).toEqual(files);
    expectProblem(await api(`/media/${item.id}`, { method: "DELETE", token: viewer.token }), 403, "forbidden");

    // An assignee (through an accepted request) uploads, and may delete their own item but not the owner's.
    const sent = await server.request(`/tasks/${task.id}/collaboration-requests`, {
      token: owner.token,
      json: { kind: "assign", userId: assignee.user.id },
    });
    expect((await api(`/collaboration-requests/${sent.body.id}/accept`, { method: "POST", token: assignee.token })).status).toBe(
      200,
    );
    const theirs = await uploaded(assignee, task.id, { kind: "text", filename: "plan.txt", data: b64("Plan") });
    expectProblem(await api(`/media/${item.id}`, { method: "DELETE", token: assignee.token }), 403, "forbidden");
    expect((await api(`/media/${theirs.id}`, { method: "DELETE", token: assignee.token })).status).toBe(204);
  });

  test("DELETE /media/{id} – the uploader or the task's owner deletes; the file leaves the disk", async () => {
    const owner = await registerUser(server);
    const task = await createTask(server, owner.token);
    const item = await uploaded(owner, task.id, { kind: "photo", filename: "gone.png", data: b64(PNG) });
    const file = await storedFile(item.id);
    expect(existsSync(file)).toBe(true);
    const deleted = await api(`/media/${item.id}`, { method: "DELETE", token: owner.token });
    expect(deleted.status).toBe(204);
    expect(existsSync(file)).toBe(false);
    expectProblem(await api(`/media/${item.id}`, { token: owner.token }), 404, "not_found");
    expectProblem(await api(`/media/${item.id}`, { method: "DELETE", token: owner.token }), 404, "not_found");
    expect(await server.sql("select * from media_purges")).toEqual([]);
  });

  test("DELETE /tasks/{id} – the task's media files leave the disk with it", async () => {
    const owner = await registerUser(server);
    const task = await createTask(server, owner.token);
    const files = [
      await storedFile((await uploaded(owner, task.id, { kind: "photo", filename: "a.png", data: b64(PNG) })).id),
      await storedFile((await uploaded(owner, task.id, { kind: "audio", filename: "b.wav", data: b64(wav()) })).id),
    ];
    expect(files.every((file) => existsSync(file))).toBe(true);
    expect((await server.request(`/tasks/${task.id}`, { method: "DELETE", token: owner.token })).status).toBe(204);
    expect(files.filter((file) => existsSync(file))).toEqual([]);
    expect(await server.sql("select * from media_items where task_id = $1", [task.id])).toEqual([]);
  });

  test("DELETE /groups/{id}?deleteTasks=true – media of the deleted tasks leave the disk", async () => {
    const owner = await registerUser(server);
    const group = await server.request("/groups", { token: owner.token, json: { names: { en: "Temporary" } } });
    expect(group.status).toBe(201);
    const task = await createTask(server, owner.token, { groupId: group.body.id });
    const file = await storedFile((await uploaded(owner, task.id, { kind: "photo", filename: "a.png", data: b64(PNG) })).id);
    const deleted = await server.request(`/groups/${group.body.id}?deleteTasks=true`, { method: "DELETE", token: owner.token });
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(204);
    expect(existsSync(file)).toBe(false);
  });

  test("the media routes answer 404 module_disabled while the module is off; the items are there again after", async () => {
    const owner = await registerUser(server);
    const task = await createTask(server, owner.token);
    const item = await uploaded(owner, task.id, { kind: "text", filename: "kept.txt", data: b64("kept") });
    moduleOverrides().set("media", false);
    try {
      const problem = expectProblem(await api(`/tasks/${task.id}/media`, { token: owner.token }), 404, "module_disabled");
      expect(problem.detail).toMatch(/media/);
      expectProblem(
        await upload(owner, task.id, { kind: "text", filename: "new.txt", data: b64("new") }),
        404,
        "module_disabled",
      );
      expectProblem(await api(`/media/${item.id}/content`, { token: owner.token }), 404, "module_disabled");
    } finally {
      moduleOverrides().delete("media");
    }
    expect((await api(`/media/${item.id}`, { token: owner.token })).body.id).toBe(item.id);
  });

  test("GET /openapi.json – the media routes are documented, marked as the media module", async () => {
    const document = (await api("/openapi.json")).body;
    const upload = document.paths["/api/v1/tasks/{id}/media"].post;
    expect(upload["x-spolu-module"]).toBe("media");
    expect(upload.responses).toHaveProperty("413");
    expect(upload.responses).toHaveProperty("415");
    expect(document.paths["/api/v1/media/{id}/content"].get.responses["200"].content).toHaveProperty("application/octet-stream");
  });
});

describe("media with an AI endpoint", () => {
  let ai: TranscriptionServer;
  beforeAll(async () => {
    ai = await startTranscriptionServer();
    server = await startTestServer({
      ...LIMITS,
      AI_BASE_URL: ai.url,
      ALLOW_PRIVATE_NETWORK_TARGETS: "ai", // the endpoint listens on 127.0.0.1, as a local Ollama would
      AI_API_KEY: "test-key",
      AI_TIMEOUT_MS: "1000",
      AI_TRANSCRIPTION_MODEL: "whisper-test",
    });
  });
  afterAll(async () => {
    await transcriptionsSettled();
    await server.close();
    await ai.close();
  });

  test("POST /tasks/{id}/media – audio is transcribed in the background: pending, then done with the text", async () => {
    const owner = await registerUser(server);
    const task = await createTask(server, owner.token);
    ai.fail = null;
    ai.delayMs = 50;
    ai.reply = () => "  Call the plumber on Monday.  ";
    const recording = wav();
    const item = await uploaded(owner, task.id, { kind: "audio", filename: "memo.wav", data: b64(recording) });
    expect(item.transcription).toMatchObject({ status: "pending", text: null });
    const done = await settled(owner, item.id);
    expect(done.transcription).toMatchObject({ status: "done", text: "Call the plumber on Monday.", message: null });
    expect(Date.parse(done.transcription.transcribedAt!)).toBeGreaterThan(Date.now() - 60_000);
    // The endpoint got the stored bytes, the model and the key.
    const received = ai.requests.at(-1)!;
    expect(received).toMatchObject({
      model: "whisper-test",
      filename: "memo.wav",
      type: "audio/wav",
      authorization: "Bearer test-key",
    });
    expect(received.bytes.equals(recording)).toBe(true);
    // Photos and text are not sent.
    const before = ai.requests.length;
    expect((await uploaded(owner, task.id, { kind: "photo", filename: "p.png", data: b64(PNG) })).transcription.status).toBe(
      "none",
    );
    await transcriptionsSettled();
    expect(ai.requests.length).toBe(before);
  });

  test("POST /tasks/{id}/media – an endpoint error ends the transcription failed, with the endpoint's reason", async () => {
    const owner = await registerUser(server);
    const task = await createTask(server, owner.token);
    ai.delayMs = 0;
    ai.fail = { status: 500, message: "model overloaded" };
    try {
      const item = await uploaded(owner, task.id, { kind: "video", filename: "clip.mp4", data: b64(MP4) });
      const failed = await settled(owner, item.id);
      expect(failed.transcription).toMatchObject({ status: "failed", text: null });
      expect(failed.transcription.message).toMatch(/500.*model overloaded/);
    } finally {
      ai.fail = null;
    }
  });

  test("POST /tasks/{id}/media – an endpoint slower than AI_TIMEOUT_MS ends the transcription failed", async () => {
    const owner = await registerUser(server);
    const task = await createTask(server, owner.token);
    ai.delayMs = 3000;
    try {
      const item = await uploaded(owner, task.id, { kind: "audio", filename: "slow.wav", data: b64(wav()) });
      const failed = await settled(owner, item.id);
      expect(failed.transcription.status).toBe("failed");
      expect(failed.transcription.message).toMatch(/did not answer within 1 s/);
    } finally {
      ai.delayMs = 0;
    }
  });
});
