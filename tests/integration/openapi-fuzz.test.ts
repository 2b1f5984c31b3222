/**
 * A fuzz over every operation of /openapi.json: each string of each body, query and path parameter is sent with a NUL
 * (U+0000), each JSON string with a lone surrogate, each date and date-time with year 0, each number huge, each
 * body nested thousands deep and each object of each body with a field it does not know. No answer may be a 5xx,
 * every refusal is application/problem+json, and the hostile strings, dates, depths and unknown fields are each a
 * 400 whose `errors` name the field. The operations come from the document: a route added later is fuzzed too.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ADMIN_EMAIL, registerUser, startTestServer, type ApiResponse, type TestServer } from "./harness";
import {
  fillPath,
  isRecord,
  leavesOf,
  objectsOf,
  operationsOf,
  replaced,
  sample,
  toPointer,
  type OpenApiDocument,
  type Operation,
} from "./openapi-operations";

let server: TestServer;
let document: OpenApiDocument;
let token: string;

beforeAll(async () => {
  // Every error report here comes from one address: its per-address limit would answer before the fields are read.
  server = await startTestServer({ ERROR_REPORT_LIMIT_POINTS: "100000" });
  document = (await server.request("/openapi.json")).body;
  token = (await registerUser(server, { email: ADMIN_EMAIL })).token;
});
afterAll(() => server.close());

/**
 * Operations that authenticate the request by a signature over its body before reading anything else: a request
 * the fuzz cannot sign is refused there (401, or 404 while the deploy webhook is not configured), before any field
 * is looked at. They are still held to "no 5xx, a problem answer".
 */
const SIGNED = new Set(["POST /api/v1/deploy/webhook", "POST /api/v1/connectors/{id}/webhook"]);

/**
 * The objects of a body that may hold fields the API does not list, each for a reason. Every other object (free-form
 * maps aside, whose keys are data) refuses an unknown field with a 400 naming it.
 * - WebAuthn's credential (`PublicKeyCredential.toJSON()`): the W3C keeps adding members (Level 3 added
 *   `authenticatorAttachment`, `response.publicKey`...), and a browser that sends a new one must still sign in; the
 *   library that checks it reads only what it knows.
 */
const OPEN_OBJECTS = new Set(["POST /api/v1/webauthn/register/verify /response", "POST /api/v1/webauthn/auth/verify /response"]);
const isOpen = (name: string, pointer: string) =>
  [...OPEN_OBJECTS].some((entry) => `${name} ${pointer}` === entry || `${name} ${pointer}`.startsWith(`${entry}/`));

interface Probe {
  what: string;
  path: string;
  query?: string;
  body?: string;
  /** Where the 400 must point, when the probe must be refused naming the field. */
  field?: { in: string; pointer: string };
}

const NUL = "\u0000";
const SURROGATE = "\ud800";
const YEAR_ZERO_TIME = "0000-01-01T00:00:00Z";
const YEAR_ZERO_DATE = "0000-01-01";
const HUGE = [1e308, 2 ** 64, -(2 ** 63)];

function deeplyNested(levels: number): string {
  return `{"deep":${"[".repeat(levels)}1${"]".repeat(levels)}}`;
}

/** Every probe of one operation. */
function probesOf(operation: Operation): Probe[] {
  const name = `${operation.method} ${operation.path}`;
  const probes: Probe[] = [];
  const path = fillPath(document, operation);
  const query = operation.parameters.filter((parameter) => parameter.in === "query");
  const baseQuery = new URLSearchParams(
    query
      .filter((parameter) => parameter.required)
      .map((parameter) => [parameter.name, String(sample(document, parameter.schema, 1))]),
  );
  const body = operation.body ? sample(document, operation.body) : undefined;
  const bodyText = body === undefined ? undefined : JSON.stringify(body);

  // Path parameters: NUL, and year 0 where the parameter is a date.
  for (const parameter of operation.parameters.filter((candidate) => candidate.in === "path")) {
    const field = { in: "path", pointer: `/${parameter.name}` };
    probes.push({
      what: `path ${parameter.name} with NUL`,
      path: fillPath(document, operation, { [parameter.name]: "a%00b" }),
      query: baseQuery.toString(),
      body: bodyText,
      field,
    });
    if (/date/.test(parameter.schema?.format ?? "") || /date|week|day/i.test(parameter.name)) {
      probes.push({
        what: `path ${parameter.name} in year 0`,
        path: fillPath(document, operation, { [parameter.name]: YEAR_ZERO_DATE }),
        query: baseQuery.toString(),
        body: bodyText,
        field,
      });
    }
  }

  // Query parameters: NUL, year 0, huge numbers, and bytes that are not UTF-8.
  for (const parameter of query) {
    const withValue = (value: string) => {
      const params = new URLSearchParams(baseQuery);
      params.set(parameter.name, value);
      return params.toString();
    };
    const field = { in: "query", pointer: `/${parameter.name}` };
    probes.push({ what: `query ${parameter.name} with NUL`, path, query: withValue(`a${NUL}b`), body: bodyText, field });
    probes.push({ what: `query ${parameter.name} in year 0`, path, query: withValue(YEAR_ZERO_TIME), body: bodyText, field });
    probes.push({ what: `query ${parameter.name} huge`, path, query: withValue("1e400"), body: bodyText });
    probes.push({
      what: `query ${parameter.name} not UTF-8`,
      path,
      query: `${withValue("x")}&${encodeURIComponent(parameter.name)}=%ED%A0%80`,
      body: bodyText,
    });
  }

  if (body !== undefined) {
    for (const leaf of leavesOf(document, body, operation.body)) {
      const field = { in: "body", pointer: toPointer(leaf.pointer) };
      const at = (value: unknown) => JSON.stringify(replaced(body, leaf.pointer, value));
      if (typeof leaf.value === "string") {
        probes.push({
          what: `body ${field.pointer} with NUL`,
          path,
          query: baseQuery.toString(),
          body: at(`${leaf.value}${NUL}`),
          field,
        });
        probes.push({
          what: `body ${field.pointer} with a lone surrogate`,
          path,
          query: baseQuery.toString(),
          body: at(`${leaf.value}${SURROGATE}`),
          field,
        });
      }
      if (leaf.format === "date-time" || leaf.format === "date") {
        probes.push({
          what: `body ${field.pointer} in year 0`,
          path,
          query: baseQuery.toString(),
          body: at(leaf.format === "date" ? YEAR_ZERO_DATE : YEAR_ZERO_TIME),
          field,
        });
      }
      if (typeof leaf.value === "number") {
        for (const huge of HUGE) {
          probes.push({ what: `body ${field.pointer} = ${huge}`, path, query: baseQuery.toString(), body: at(huge) });
        }
      }
    }
    // An unknown field in each object of the body (the body itself first); free-form maps take any key.
    for (const { pointer, schema } of objectsOf(document, body, operation.body)) {
      if (isRecord(schema) || isOpen(name, toPointer(pointer))) continue;
      const object = pointer.reduce<any>((value, part) => value[part], body);
      const field = { in: "body", pointer: toPointer([...pointer, "fuzzUnknownField"]) };
      probes.push({
        what: `body ${toPointer(pointer) || "/"} with an unknown field`,
        path,
        query: baseQuery.toString(),
        body: JSON.stringify(replaced(body, pointer, { ...object, fuzzUnknownField: 1 })),
        field,
      });
    }
    probes.push({ what: "body nested 5000 deep", path, query: baseQuery.toString(), body: deeplyNested(5000) });
  }
  return probes;
}

async function send(operation: Operation, probe: Probe): Promise<ApiResponse> {
  const url = `${probe.path}${probe.query ? `?${probe.query}` : ""}`;
  return server.request(url, {
    method: operation.method,
    token,
    ...(probe.body !== undefined && { body: probe.body, headers: { "Content-Type": "application/json" } }),
  });
}

describe("every operation of /openapi.json, fuzzed", () => {
  test("the document has operations to fuzz", () => {
    expect(operationsOf(document).length).toBeGreaterThan(100);
  });

  test("no 5xx; problem+json refusals; hostile strings, dates and unknown fields are a 400 naming the field", async () => {
    const failures: string[] = [];
    let probed = 0;
    for (const operation of operationsOf(document)) {
      const name = `${operation.method} ${operation.path}`;
      for (const probe of probesOf(operation)) {
        probed++;
        const response = await send(operation, probe);
        const where = `${name}: ${probe.what} → ${response.status} ${JSON.stringify(response.body).slice(0, 300)}`;
        if (response.status >= 500) {
          failures.push(where);
          continue;
        }
        if (response.status >= 400 && !/^application\/problem\+json/.test(response.headers.get("content-type") ?? "")) {
          failures.push(`${where} (not problem+json)`);
          continue;
        }
        if (!probe.field || SIGNED.has(name)) continue;
        const named = (response.body?.errors ?? []).some(
          (error: { in: string; pointer: string }) => error.in === probe.field!.in && error.pointer === probe.field!.pointer,
        );
        if (response.status !== 400 || !named)
          failures.push(`${where} (expected a 400 naming ${probe.field.in} ${probe.field.pointer})`);
      }
    }
    expect(probed).toBeGreaterThan(1000);
    expect(failures, failures.join("\n")).toEqual([]);
  }, 600_000);
});
