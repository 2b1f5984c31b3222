/**
 * What a generated client and a person reading /docs need from every operation of /openapi.json: an operationId, an
 * example of each request body and success answer that validates against its schema, a description of every
 * parameter, and the headers the server really sends declared as components. A route added later is checked without
 * anyone listing it; each failure names the operation and what to add.
 */
import Ajv2020, { type ValidateFunction } from "ajv/dist/2020";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { OPERATION_ID_OVERRIDES } from "../../lib/api/operation-id";
import { createTask, registerUser, startTestServer, type TestServer } from "./harness";

type Json = Record<string, any>;

let server: TestServer;
let document: Json;
const operations: { where: string; method: string; path: string; operation: Json }[] = [];
beforeAll(async () => {
  server = await startTestServer();
  document = (await server.request("/openapi.json")).body;
  for (const [path, item] of Object.entries<Json>(document.paths)) {
    for (const [method, operation] of Object.entries<Json>(item)) {
      operations.push({ where: `${method.toUpperCase()} ${path}`, method, path, operation });
    }
  }
});
afterAll(() => server.close());

/** The component a `$ref` names, or the object itself. */
function deref(object: Json): Json {
  if (!object?.$ref) return object;
  const [, , kind, name] = String(object.$ref).split("/");
  return document.components[kind!][name!];
}

function successes(operation: Json): [string, Json][] {
  return Object.entries<Json>(operation.responses).filter(([status]) => status.startsWith("2"));
}

const HOW_TO_EXAMPLE =
  "give the schema (in its schema.ts) `.openapi({ example })`, or each field without a format, enum or example one";

describe("GET /openapi.json – every operation is complete", () => {
  test("has a unique camelCase operationId (lib/api/operation-id.ts makes it from the method and path)", () => {
    const seen = new Map<string, string>();
    const problems: string[] = [];
    for (const { where, operation } of operations) {
      const id = operation.operationId;
      if (typeof id !== "string" || !/^[a-z][A-Za-z0-9]*$/.test(id))
        problems.push(`${where}: operationId ${id} is not camelCase`);
      else if (seen.has(id))
        problems.push(`${where}: operationId ${id} is also ${seen.get(id)}'s (name one in OPERATION_ID_OVERRIDES)`);
      seen.set(id, where);
    }
    expect(problems).toEqual([]);
    expect(document.paths["/api/v1/tasks"].get.operationId).toBe("listTasks");
    expect(document.paths["/api/v1/tasks"].post.operationId).toBe("createTask");
    expect(document.paths["/api/v1/tasks/{id}"].get.operationId).toBe("getTask");
    // An override that names no served operation is left over from a route that moved.
    const served = new Set(operations.map(({ where }) => where.replace(" /api/v1/", " /")));
    expect(Object.keys(OPERATION_ID_OVERRIDES).filter((key) => !served.has(key))).toEqual([]);
  });

  test("has an example of its request body and of each success answer", () => {
    const missing: string[] = [];
    for (const { where, operation } of operations) {
      for (const [type, media] of Object.entries<Json>(operation.requestBody?.content ?? {})) {
        if (media.example === undefined && !media.examples) missing.push(`${where} request body (${type}): ${HOW_TO_EXAMPLE}`);
      }
      for (const [status, response] of successes(operation)) {
        for (const [type, media] of Object.entries<Json>(deref(response).content ?? {})) {
          if (media.schema?.format === "binary") continue;
          if (media.example === undefined && !media.examples) {
            missing.push(
              `${where} ${status} answer (${type}): ${type.includes("json") ? HOW_TO_EXAMPLE : "give its content an `example` in the route"}`,
            );
          }
        }
      }
    }
    expect(missing).toEqual([]);
  });

  test("describes every parameter", () => {
    const missing = operations.flatMap(({ where, operation }) =>
      (operation.parameters ?? [])
        .map(deref)
        .filter((parameter: Json) => !parameter.description?.trim())
        .map(
          (parameter: Json) =>
            `${where}: ${parameter.in} parameter \`${parameter.name}\` – give it \`.openapi({ description })\` where its schema is declared`,
        ),
    );
    expect(missing).toEqual([]);
  });

  test("declares the headers the server sends: X-Request-Id, RateLimit-*, Retry-After, ETag, Idempotency-Key, Idempotent-Replayed", () => {
    const missing: string[] = [];
    const needs = (where: string, headers: Json | undefined, names: string[]) => {
      for (const name of names) {
        if (!headers?.[name]?.$ref?.startsWith("#/components/headers/"))
          missing.push(`${where}: no ${name} header (a component $ref)`);
      }
    };
    for (const { where, operation } of operations) {
      const limited = operation.responses["429"] !== undefined;
      const window = limited ? ["RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"] : [];
      if (limited) needs(`${where} 429`, operation.responses["429"].headers, ["Retry-After", ...window]);
      if (operation.responses["503"]) needs(`${where} 503`, operation.responses["503"].headers, ["Retry-After"]);
      const parameters: Json[] = (operation.parameters ?? []).map(deref);
      const conditional = parameters.some((parameter) => /^if-(none-)?match$/i.test(parameter.name));
      const idempotent = operation["x-spolu-idempotent"] === true;
      if (idempotent && !parameters.some((parameter) => parameter.name === "Idempotency-Key")) {
        missing.push(`${where}: no Idempotency-Key parameter`);
      }
      for (const [status, response] of successes(operation)) {
        needs(`${where} ${status}`, response.headers, [
          "X-Request-Id",
          ...window,
          ...(idempotent ? ["Idempotent-Replayed"] : []),
          ...(conditional && response.content ? ["ETag"] : []),
        ]);
      }
      if (parameters.some((parameter) => /^if-none-match$/i.test(parameter.name)))
        needs(`${where} 304`, operation.responses["304"]?.headers, ["ETag"]);
      if (parameters.some((parameter) => /^if-match$/i.test(parameter.name)))
        needs(`${where} 412`, operation.responses["412"]?.headers, ["ETag"]);
    }
    expect(missing).toEqual([]);
    for (const name of [
      "XRequestId",
      "RateLimitLimit",
      "RateLimitRemaining",
      "RateLimitReset",
      "RetryAfter",
      "ETag",
      "IdempotentReplayed",
    ]) {
      expect(document.components.headers[name]?.description, name).toBeTruthy();
    }
    expect(document.components.parameters.IdempotencyKey).toMatchObject({ name: "Idempotency-Key", in: "header" });
  });

  test("GET, PATCH /tasks/{id} – the headers the answer carries are the ones the document declares", async () => {
    const { token } = await registerUser(server);
    const task = await createTask(server, token, { title: "Headers" });
    const read = await server.request(`/tasks/${task.id}`, { token });
    const changed = await server.request(`/tasks/${task.id}`, {
      method: "PATCH",
      token,
      json: { title: "Headers, changed" },
      headers: { "If-Match": read.headers.get("etag")! },
    });
    for (const [method, answer] of [
      ["get", read],
      ["patch", changed],
    ] as const) {
      expect(answer.status).toBe(200);
      const declared = Object.keys(document.paths["/api/v1/tasks/{id}"][method].responses["200"].headers).map((name) =>
        name.toLowerCase(),
      );
      for (const name of ["x-request-id", "ratelimit-limit", "ratelimit-remaining", "ratelimit-reset", "etag"]) {
        expect(answer.headers.get(name), `${method} sends ${name}`).toBeTruthy();
        expect(declared, `${method} declares ${name}`).toContain(name);
      }
    }
  });

  test("every example validates against its schema", () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
    ajv.addFormat("uuid", /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);
    ajv.addFormat(
      "date-time",
      (value: string) =>
        /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)$/.test(value) && !Number.isNaN(Date.parse(value)),
    );
    ajv.addFormat("date", /^\d{4}-\d\d-\d\d$/);
    ajv.addFormat("email", /^[^\s@]+@[^\s@]+\.[^\s@]+$/);
    ajv.addFormat("uri", (value: string) => URL.canParse(value));
    for (const format of ["url", "time", "ipv4", "ipv6", "binary", "int32", "int64", "float", "double"])
      ajv.addFormat(format, true);
    ajv.addSchema({ $id: "spolu:components", components: document.components });
    const compiled = new Map<string, ValidateFunction>();
    const check = (where: string, schema: Json | undefined, example: unknown) => {
      if (!schema || example === undefined) return;
      const text = JSON.stringify(schema).replace(/"#\/components\//g, '"spolu:components#/components/');
      let validate = compiled.get(text);
      if (!validate) compiled.set(text, (validate = ajv.compile(JSON.parse(text))));
      if (!validate(example))
        invalid.push(`${where}: ${ajv.errorsText(validate.errors)} (example ${JSON.stringify(example).slice(0, 200)})`);
    };
    const invalid: string[] = [];
    // Examples declared on schemas (and their fields), wherever they are.
    const walk = (where: string, schema: unknown) => {
      if (!schema || typeof schema !== "object") return;
      const object = schema as Json;
      if (object.example !== undefined && !object.$ref) check(where, object, object.example);
      for (const [key, value] of Object.entries(object)) if (key !== "example") walk(`${where}/${key}`, value);
    };
    walk("#/components/schemas", document.components.schemas);
    for (const [name, header] of Object.entries<Json>(document.components.headers))
      check(`header ${name}`, header.schema, header.example);
    for (const [name, parameter] of Object.entries<Json>(document.components.parameters))
      check(`parameter ${name}`, parameter.schema, parameter.example);
    for (const { where, operation } of operations) {
      for (const parameter of operation.parameters ?? [])
        check(`${where} ${parameter.name}`, parameter.schema, parameter.example);
      for (const [type, media] of Object.entries<Json>(operation.requestBody?.content ?? {})) {
        check(`${where} request body (${type})`, media.schema, media.example);
      }
      for (const [status, response] of Object.entries<Json>(operation.responses)) {
        for (const [type, media] of Object.entries<Json>(deref(response).content ?? {})) {
          check(`${where} ${status} (${type})`, media.schema, media.example);
        }
      }
      walk(where, operation.parameters);
    }
    expect(invalid).toEqual([]);
    expect(compiled.size).toBeGreaterThan(100);
  });
});
