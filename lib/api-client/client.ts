/**
 * The web app's client of the JSON API, typed by lib/api-client/schema.ts (generated from /openapi.json by
 * `npm run api:types`), so that a changed route schema fails `npm run typecheck` at every call that no longer fits.
 *
 *     const answer = await api.PATCH("/api/v1/tasks/{id}", { params: { path: { id } }, body: { status: "done" } });
 *     if (answer.ok) show(answer.body);              // the success body, typed from the route's schema
 *     else if (answer.status === 400) mark(answer.body); // the problem+json body (or null when there is none)
 *     else fail(answer.status);
 *
 * - `api.GET | POST | PUT | PATCH | DELETE(path, init)`: `path` is the document's literal path (`{id}` placeholders);
 *   `init` is openapi-fetch's: `params: { path, query }`, `body` (sent as JSON), `headers` (e.g. `If-Match`).
 *   One of several paths: `` `/api/v1/invitations/{id}/${action}` as const `` (a union of literal paths). A page
 *   that forwards its own address's filter passes `querySerializer: () => search` instead of `params.query`.
 * - It answers every HTTP status as an `ApiAnswer`: `ok` (2xx), `status` and `body` (the parsed JSON body; a problem
 *   answer's body is `null` when it is not JSON, and a 204's body is `undefined`). Like `fetch`, it throws only when
 *   no answer came (offline, server gone): callers that want one path write `.catch(() => null)` (the task page's
 *   parts write `.catch(noAnswer)`, components/tasks/detail/task-api.ts, which reads it as status 0).
 * - Same-origin requests with the session cookie, never cached, `Accept: application/json`; the server's origin
 *   check (lib/api/same-origin.ts) accepts them as the app's own pages. Built on openapi-fetch.
 */
import createClient, { type FetchResponse, type MaybeOptionalInit } from "openapi-fetch";
import type { components, paths } from "./schema";

/** The document's named schemas (`Schemas["Problem"]`), for values built before a call or kept after it. */
export type Schemas = components["schemas"];

/** A problem answer of the API (RFC 9457), as the schema declares it. */
export type Problem = Schemas["Problem"];

/** What the API answered: a success with its typed body, or a failure with its problem body (if any). */
export type ApiAnswer<Body, Failure = Problem> =
  { ok: true; status: number; body: Body } | { ok: false; status: number; body: Failure | null };

type Method = "get" | "put" | "post" | "patch" | "delete";
type PathsWith<M extends Method> = { [P in keyof paths]: paths[P] extends { [K in M]: object } ? P : never }[keyof paths];
type RequiredKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? never : K }[keyof T];
/** The second argument: optional when the operation needs neither parameters nor a body. */
type Init<I> = RequiredKeys<I> extends never ? [init?: I] : [init: I];
type Result = { data?: unknown; error?: unknown; response: Response };
/** The typed answer of one operation, from openapi-fetch's result type. */
type AnswerOf<R extends Result> = ApiAnswer<
  R extends { data: infer Body; error?: never } ? Body : never,
  R extends { data?: never; error: infer Failure } ? Failure : never
>;

type Call<M extends Method> = <P extends PathsWith<M>, I extends MaybeOptionalInit<paths[P], M>>(
  path: P,
  ...init: Init<I>
) => Promise<AnswerOf<FetchResponse<Extract<paths[P][M], Record<string, unknown>>, I, `${string}/${string}`>>>;

const client = createClient<paths>({
  credentials: "same-origin",
  cache: "no-store",
  headers: { Accept: "application/json" },
  // Looked up at each call, so that a page or a test that replaces fetch is heard.
  fetch: (request) => globalThis.fetch(request),
});

function toAnswer({ data, error, response }: Result): ApiAnswer<unknown, unknown> {
  if (response.ok) return { ok: true, status: response.status, body: data };
  return { ok: false, status: response.status, body: typeof error === "object" ? error : null };
}

function method<M extends Method>(name: Uppercase<M>): Call<M> {
  const send = client[name] as (path: string, init?: object) => Promise<Result>;
  return (async (path: string, init?: object) => toAnswer(await send(path, init))) as unknown as Call<M>;
}

/** The API's operations by method and path; see the top of this file. */
export const api = {
  GET: method<"get">("GET"),
  POST: method<"post">("POST"),
  PUT: method<"put">("PUT"),
  PATCH: method<"patch">("PATCH"),
  DELETE: method<"delete">("DELETE"),
};
