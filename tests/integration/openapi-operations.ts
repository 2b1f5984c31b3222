/**
 * The operations of /openapi.json as the generated security tests use them: each with its path, method, who may call
 * it, its parameters and a sample of its JSON body built from the schema. A route added tomorrow is in this list
 * without anyone adding it: the fuzz (openapi-fuzz.test.ts) and the cross-site matrix (cross-site.test.ts) run over it.
 */
import { randomUUID } from "node:crypto";

export type Schema = Record<string, any>;

export interface Parameter {
  name: string;
  in: "path" | "query" | "header";
  required: boolean;
  schema: Schema;
}

export interface Operation {
  method: string;
  /** The OpenAPI path, with `{name}` parameters. */
  path: string;
  /** Signed-in (bearer) operations: the session cookie is accepted as well. */
  signedIn: boolean;
  /** `x-spolu-module`, when the operation belongs to a feature module. */
  module?: string;
  parameters: Parameter[];
  /** The JSON body's schema, references resolved lazily through `resolve`. */
  body?: Schema;
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, any>>;
  components: { schemas: Record<string, Schema> };
}

export function operationsOf(document: OpenApiDocument): Operation[] {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      operations.push({
        method: method.toUpperCase(),
        path,
        signedIn: Array.isArray(operation.security) && operation.security.length > 0,
        module: operation["x-spolu-module"],
        parameters: (operation.parameters ?? []) as Parameter[],
        body: operation.requestBody?.content?.["application/json"]?.schema,
      });
    }
  }
  return operations;
}

/** A schema with its `$ref` followed. */
export function resolve(document: OpenApiDocument, schema: Schema | undefined): Schema {
  let current = schema ?? {};
  for (let hops = 0; current.$ref && hops < 20; hops++) {
    current = document.components.schemas[String(current.$ref).replace("#/components/schemas/", "")] ?? {};
  }
  return current;
}

/** The non-null branch a sample takes of a union (the first that is not `null`). */
function branch(document: OpenApiDocument, schema: Schema): Schema {
  const choices: Schema[] | undefined = schema.anyOf ?? schema.oneOf;
  if (!choices) return schema;
  const picked = choices.map((choice) => resolve(document, choice)).find((choice) => choice.type !== "null");
  return picked ? branch(document, picked) : schema;
}

function typeOf(schema: Schema): string | undefined {
  if (Array.isArray(schema.type)) return schema.type.find((type: string) => type !== "null");
  if (schema.type) return schema.type;
  if (schema.properties) return "object";
  if (schema.enum) return typeof schema.enum[0];
  if (schema.const !== undefined) return typeof schema.const;
  return undefined;
}

/** A plausible value of a string schema: its example, enum, format, or enough letters. */
function sampleString(schema: Schema): string {
  if (schema.enum) return schema.enum[0];
  if (schema.const !== undefined) return schema.const;
  switch (schema.format) {
    case "uuid":
      return randomUUID();
    case "email":
      return `fuzz-${randomUUID()}@example.com`;
    case "date-time":
      return "2031-05-06T07:08:09Z";
    case "date":
      return "2031-05-06";
    case "uri":
    case "url":
      return "https://example.com/fuzz";
  }
  if (typeof schema.example === "string") return schema.example;
  return "f".repeat(Math.max(4, Math.min(schema.minLength ?? 0, 64)));
}

/** A sample value of a schema: every property of an object (optional ones too), one item of an array. */
export function sample(document: OpenApiDocument, given: Schema | undefined, depth = 0): unknown {
  const schema = branch(document, resolve(document, given));
  if (schema.allOf) {
    return Object.assign({}, ...schema.allOf.map((part: Schema) => sample(document, part, depth + 1)));
  }
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  if (schema.default !== undefined && depth > 0 && typeof schema.default !== "object") return schema.default;
  switch (typeOf(schema)) {
    case "string":
      return sampleString(schema);
    case "integer":
    case "number":
      return Math.max(1, schema.minimum ?? 1, schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : 1);
    case "boolean":
      return true;
    case "array":
      return depth > 8
        ? []
        : Array.from({ length: Math.max(1, schema.minItems ?? 1) }, () => sample(document, schema.items, depth + 1));
    case "object": {
      if (depth > 8) return {};
      const value: Record<string, unknown> = {};
      for (const [name, property] of Object.entries<Schema>(schema.properties ?? {})) {
        value[name] = sample(document, property, depth + 1);
      }
      if (!schema.properties && schema.additionalProperties && schema.additionalProperties !== true) {
        value.key = sample(document, schema.additionalProperties, depth + 1);
      }
      return value;
    }
    default:
      return "fuzz";
  }
}

/** A leaf of a sample: where it is (JSON Pointer), its value, and its schema's format. */
export interface Leaf {
  pointer: string[];
  value: unknown;
  format?: string;
}

/** Every leaf (string, number, boolean) of a sample, with the format its schema gives. */
export function leavesOf(document: OpenApiDocument, value: unknown, given: Schema | undefined, pointer: string[] = []): Leaf[] {
  const schema = branch(document, resolve(document, given));
  if (Array.isArray(value))
    return value.flatMap((item, index) => leavesOf(document, item, schema.items, [...pointer, String(index)]));
  if (value !== null && typeof value === "object") {
    return Object.entries(value).flatMap(([name, item]) =>
      leavesOf(document, item, schema.properties?.[name] ?? schema.additionalProperties, [...pointer, name]),
    );
  }
  return [{ pointer, value, format: schema.format }];
}

/** An object inside a sample: where it is, and its schema. */
export interface ObjectAt {
  pointer: string[];
  schema: Schema;
}

/** Every object inside a sample (the body itself first), by pointer, with its schema. */
export function objectsOf(
  document: OpenApiDocument,
  value: unknown,
  given: Schema | undefined,
  pointer: string[] = [],
): ObjectAt[] {
  const schema = branch(document, resolve(document, given));
  if (Array.isArray(value))
    return value.flatMap((item, index) => objectsOf(document, item, schema.items, [...pointer, String(index)]));
  if (value === null || typeof value !== "object") return [];
  return [
    { pointer, schema },
    ...Object.entries(value).flatMap(([name, item]) =>
      objectsOf(document, item, schema.properties?.[name] ?? schema.additionalProperties, [...pointer, name]),
    ),
  ];
}

/** A free-form map (`z.record`): any key is a value, not an unknown field. */
export const isRecord = (schema: Schema) =>
  !schema.properties && schema.additionalProperties !== undefined && schema.additionalProperties !== false;

/** A copy of `value` with the leaf at `pointer` replaced. */
export function replaced(value: unknown, pointer: string[], replacement: unknown): unknown {
  if (pointer.length === 0) return replacement;
  const copy: any = structuredClone(value);
  let at = copy;
  for (const part of pointer.slice(0, -1)) at = at[Array.isArray(at) ? Number(part) : part];
  at[pointer.at(-1)!] = replacement;
  return copy;
}

export const toPointer = (parts: string[]) => parts.map((part) => `/${part.replace(/~/g, "~0").replace(/\//g, "~1")}`).join("");

/** The path with each parameter filled in: `values[name]` when given, else a sample of its schema, encoded. */
export function fillPath(document: OpenApiDocument, operation: Operation, values: Record<string, string> = {}): string {
  return operation.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (values[name] !== undefined) return values[name];
    const parameter = operation.parameters.find((candidate) => candidate.in === "path" && candidate.name === name);
    return encodeURIComponent(String(sample(document, parameter?.schema, 1)));
  });
}
