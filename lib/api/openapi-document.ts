/**
 * What /openapi.json adds to the document the routes generate, by one rule for every operation, so that a route added
 * later is covered without writing any of it: an example for each JSON request body and success answer (composed from
 * the examples its schemas declare with `.openapi({ example })`, else from each field's type and format), and a
 * description for each path parameter that names a resource's id (`/tasks/{id}` → "The task's id"), and a nullable
 * reference that accepts null (the generator writes `recurrence: Recurrence.nullable()` as `allOf: [Recurrence,
 * { type: [object, null] }]`, which null cannot satisfy: it becomes `anyOf: [Recurrence, { type: null }]`).
 * tests/integration/openapi-completeness.test.ts checks the result and names what the rule could not supply.
 */

/** A part of the generated JSON document (a schema, an operation, a media type): any JSON object. */
type Schema = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
interface Document {
  paths?: Record<string, Schema | undefined>;
  components?: { schemas?: Record<string, Schema> };
}

/** Plausible values of plain string fields that name no format, by the field's name. */
const STRING_EXAMPLES: Readonly<Record<string, string>> = {
  name: "Household",
  displayName: "Ada Lovelace",
  title: "Buy milk",
  description: "Two litres, semi-skimmed",
  note: "Done before the deadline",
  text: "Water the plants every Monday",
  message: "Something went wrong",
  email: "ada@example.com",
  password: "correct horse battery staple",
  currentPassword: "correct horse battery staple",
  timeZone: "Europe/Prague",
  url: "https://example.com/hook",
  avatarUrl: "https://example.com/avatar.png",
  nextCursor: "eyJpZCI6IjNmMWMyZDRlIn0",
  token: "3q2-7wEXAMPLEtoken",
  color: "#3b82f6",
  reason: "Not needed any more",
  error: "Timed out after 10 s",
  lastError: "Timed out after 10 s",
  userAgent: "Mozilla/5.0 (X11; Linux x86_64) Firefox/133.0",
  ipAddress: "203.0.113.7",
  requestId: "3f1c2d4e-5a6b-4c7d-8e9f-0a1b2c3d4e5f",
  subject: "Your weekly summary",
  body: "Three tasks are due this week.",
  label: "Morning",
  kind: "task",
  type: "task",
};

const FORMAT_EXAMPLES: Readonly<Record<string, string>> = {
  uuid: "3f1c2d4e-5a6b-4c7d-8e9f-0a1b2c3d4e5f",
  "date-time": "2026-11-27T09:30:00.000Z",
  date: "2026-11-27",
  time: "09:30:00",
  email: "ada@example.com",
  uri: "https://example.com/",
  url: "https://example.com/",
  ipv4: "203.0.113.7",
  ipv6: "2001:db8::7",
};

/** A value that fits a string schema, or undefined when none can be made (a pattern the field's name does not match). */
function stringExample(schema: Schema, field: string): string | undefined {
  if (schema.format && FORMAT_EXAMPLES[schema.format]) return FORMAT_EXAMPLES[schema.format];
  if (schema.format) return undefined;
  let value = STRING_EXAMPLES[field] ?? field.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
  if (!value) value = "example";
  if (schema.minLength && value.length < schema.minLength) value = value.padEnd(schema.minLength, "x");
  if (schema.maxLength !== undefined && value.length > schema.maxLength) value = value.slice(0, schema.maxLength);
  // A pattern cannot be satisfied by guessing: the value is used only when it happens to match.
  if (schema.pattern && !new RegExp(schema.pattern, "u").test(value)) return undefined;
  return value;
}

function numberExample(schema: Schema): number {
  const low = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : undefined);
  const high = schema.maximum ?? (schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - 1 : undefined);
  let value = low ?? Math.min(1, high ?? 1);
  if (high !== undefined && value > high) value = high;
  return schema.type === "integer" ? Math.ceil(value) : value;
}

const UNKNOWN = Symbol("no example");

const ANNOTATIONS = new Set(["description", "title", "deprecated", "readOnly", "writeOnly", "default"]);

/** A schema that only describes: `{ description }`. */
function isAnnotation(schema: Schema): boolean {
  return Object.keys(schema).every((key) => ANNOTATIONS.has(key));
}

/**
 * An example of `schema` built from the examples it and its parts declare; UNKNOWN where a part gives nothing. An
 * answer shows every field; a request body (`request`) only the required ones and the optional plain values (no
 * optional objects, lists or ids, which other fields or rules may exclude).
 */
export function composeExample(
  document: Document,
  schema: Schema | undefined,
  field = "",
  seen: string[] = [],
  request = false,
): unknown {
  if (!schema) return UNKNOWN;
  if (schema.example !== undefined) return schema.example;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if (schema.$ref) {
    const name = String(schema.$ref).replace("#/components/schemas/", "");
    if (seen.includes(name)) return UNKNOWN;
    return composeExample(document, document.components?.schemas?.[name], field, [...seen, name], request);
  }
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  const choices: Schema[] | undefined = schema.anyOf ?? schema.oneOf;
  if (choices) {
    for (const choice of choices.filter((option) => option.type !== "null")) {
      const value = composeExample(document, choice, field, seen, request);
      if (value !== UNKNOWN) return value;
    }
    return choices.some((option) => option.type === "null") ? null : UNKNOWN;
  }
  if (schema.allOf) {
    // `{ allOf: [{ $ref }, { description }] }` is how a described reference is written: annotations add no value.
    const parts = (schema.allOf as Schema[])
      .filter((part) => !isAnnotation(part))
      .map((part) => composeExample(document, part, field, seen, request));
    if (parts.includes(UNKNOWN) || parts.length === 0) return UNKNOWN;
    return parts.length === 1 ? parts[0] : Object.assign({}, ...parts);
  }
  const type = Array.isArray(schema.type) ? schema.type.find((name: string) => name !== "null") : schema.type;
  if (type === "object" || schema.properties) {
    const value: Record<string, unknown> = {};
    const required = new Set<string>(schema.required ?? []);
    for (const [name, property] of Object.entries<Schema>(schema.properties ?? {})) {
      if (request && !required.has(name) && !isPlainValue(document, property)) continue;
      const part = composeExample(document, property, name, seen, request);
      if (part === UNKNOWN) return UNKNOWN;
      value[name] = part;
    }
    return value;
  }
  if (type === "array") {
    if (schema.maxItems === 0) return [];
    const item = composeExample(document, schema.items, field, seen, request);
    return item === UNKNOWN ? UNKNOWN : Array.from({ length: Math.max(1, schema.minItems ?? 1) }, () => item);
  }
  if (type === "string") return stringExample(schema, field) ?? UNKNOWN;
  if (type === "number" || type === "integer") return numberExample(schema);
  if (type === "boolean") return true;
  if (type === "null") return null;
  return UNKNOWN;
}

/** A string, number, boolean or choice that is not an id: shown in a request body's example even when optional. */
function isPlainValue(document: Document, schema: Schema): boolean {
  let current = schema;
  for (let hops = 0; current.$ref && hops < 20; hops++) {
    current = document.components?.schemas?.[String(current.$ref).replace("#/components/schemas/", "")] ?? {};
  }
  const choices: Schema[] | undefined = current.anyOf ?? current.oneOf ?? current.allOf;
  if (choices)
    return choices
      .filter((choice) => choice.type !== "null" && !isAnnotation(choice))
      .every((choice) => isPlainValue(document, choice));
  const types: string[] = Array.isArray(current.type) ? current.type : [current.type];
  if (current.format === "uuid") return false;
  return current.enum !== undefined || types.some((type) => ["string", "number", "integer", "boolean"].includes(type));
}

/** Gives a media type object without an example the composed one (left without when it cannot be composed). */
function exampleFor(document: Document, media: Schema | undefined, request: boolean) {
  if (!media || media.example !== undefined || media.examples || !media.schema) return;
  if (media.schema.format === "binary") return;
  const value = composeExample(document, media.schema, "", [], request);
  if (value !== UNKNOWN) media.example = value;
}

/** `/tasks/{id}` → "task", `/user-groups/{id}` → "user group", `{subtaskId}` → "subtask". */
function resourceOf(path: string, name: string): string | undefined {
  if (name !== "id") {
    const match = /^(\w+?)Id$/.exec(name);
    return match?.[1]?.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
  }
  const segments = path.split("/");
  const before = segments[segments.indexOf("{id}") - 1];
  if (!before || before.startsWith("{")) return undefined;
  const words = before.split("-");
  const last = words.pop() ?? "";
  words.push(/ies$/.test(last) ? `${last.slice(0, -3)}y` : /[^siu]s$/.test(last) ? last.slice(0, -1) : last);
  return words.join(" ");
}

/** Rewrites each `allOf: [{ $ref }, { type: [object, null] }]` under `node` as `anyOf: [{ $ref }, { type: null }]`. */
function nullableReferences(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(nullableReferences);
  if (!node || typeof node !== "object") return;
  const schema = node as Schema;
  const [reference, nullable, ...others] = schema.allOf ?? [];
  const type = nullable?.type;
  if (reference?.$ref && others.length === 0 && Object.keys(nullable).length === 1 && Array.isArray(type)) {
    if (type.length === 2 && type.includes("object") && type.includes("null")) {
      delete schema.allOf;
      schema.anyOf = [reference, { type: "null" }];
    }
  }
  Object.values(schema).forEach(nullableReferences);
}

/** Completes the generated document in place (see the comment at the top) and returns it. */
export function completeDocument<T extends Document>(document: T): T {
  nullableReferences(document.paths);
  nullableReferences(document.components);
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const operation of Object.values(item ?? {})) {
      for (const parameter of operation.parameters ?? []) {
        if (parameter.in !== "path" || parameter.description || parameter.$ref) continue;
        const resource = resourceOf(path, parameter.name);
        if (resource) parameter.description = `The ${resource}'s id`;
      }
      exampleFor(document, operation.requestBody?.content?.["application/json"], true);
      for (const [status, response] of Object.entries<Schema>(operation.responses ?? {})) {
        // Other media (CSV, iCalendar, a stream) cannot be made up from a schema: their route gives the example.
        if (status.startsWith("2")) exampleFor(document, response.content?.["application/json"], false);
      }
    }
  }
  return document;
}
