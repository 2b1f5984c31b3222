/**
 * A local HTTP server speaking the part of Resend's API (resend.com/docs/api-reference) that the `resend` package
 * uses to send one email: `POST /emails` with `Authorization: Bearer <key>` and a JSON body (`from`, `to`,
 * `subject`, `html`, `text`...), answering `200 {"id"}` on success and, like Resend, `{statusCode, name, message}`
 * on errors: 401 missing_api_key, 403 invalid_api_key, 422 missing_required_field / validation_error, 409
 * invalid_idempotent_request, 404 not_found, 405 method_not_allowed.
 */
import { randomUUID } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface ResendRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body (null when it was not JSON). */
  body: Record<string, unknown> | null;
}

export interface SentViaResend {
  id: string;
  body: Record<string, unknown>;
}

export interface ResendStub {
  /** For RESEND_BASE_URL. */
  url: string;
  /** Every request, as received. */
  requests: ResendRequest[];
  /** The emails it accepted. */
  sent: SentViaResend[];
  close(): Promise<void>;
}

export interface ResendStubOptions {
  apiKey: string;
  /** A recipient Resend would not send to (as for an unverified domain): answered 403 validation_error. */
  refuse?: (to: string) => boolean;
}

const EMAIL = /^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+$/;
const FROM = /^(?:[^<>]*<[^\s@<>]+@[^\s@<>]+>|[^\s@<>]+@[^\s@<>]+)$/;

function answer(response: ServerResponse, status: number, body: unknown) {
  response.writeHead(status, { "Content-Type": "application/json" }).end(JSON.stringify(body));
}

const problem = (response: ServerResponse, statusCode: number, name: string, message: string) =>
  answer(response, statusCode, { statusCode, name, message });

export async function startResendStub(options: ResendStubOptions): Promise<ResendStub> {
  const requests: ResendRequest[] = [];
  const sent: SentViaResend[] = [];
  const byIdempotencyKey = new Map<string, { body: string; id: string }>();

  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      let body: Record<string, unknown> | null = null;
      try {
        const parsed: unknown = JSON.parse(raw);
        if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) body = parsed as Record<string, unknown>;
      } catch {
        body = null;
      }
      const path = (request.url ?? "/").split("?")[0]!;
      requests.push({ method: request.method ?? "", path, headers: request.headers, body });

      if (path !== "/emails") return problem(response, 404, "not_found", "The requested endpoint does not exist.");
      if (request.method !== "POST")
        return problem(response, 405, "method_not_allowed", "Method is not allowed for the requested path.");
      const authorization = request.headers.authorization;
      if (!authorization) return problem(response, 401, "missing_api_key", "Missing API key in the authorization header.");
      if (authorization !== `Bearer ${options.apiKey}`) return problem(response, 403, "invalid_api_key", "API key is invalid");
      if (!body) return problem(response, 422, "validation_error", "Invalid JSON body.");

      for (const field of ["from", "to", "subject"]) {
        if (body[field] === undefined || body[field] === "") {
          return problem(response, 422, "missing_required_field", `Missing \`${field}\` field.`);
        }
      }
      if (typeof body.html !== "string" && typeof body.text !== "string") {
        return problem(response, 422, "missing_required_field", "Missing `html` or `text` field.");
      }
      if (typeof body.from !== "string" || !FROM.test(body.from)) {
        return problem(
          response,
          422,
          "validation_error",
          "Invalid `from` field. The email address needs to follow the `email@example.com` or `Name <email@example.com>` format.",
        );
      }
      const recipients = [body.to].flat();
      if (!recipients.every((to): to is string => typeof to === "string" && EMAIL.test(to))) {
        return problem(
          response,
          422,
          "validation_error",
          "Invalid `to` field. The email address needs to follow the `email@example.com` format.",
        );
      }
      if (recipients.some((to) => options.refuse?.(to))) {
        return problem(
          response,
          403,
          "validation_error",
          "You can only send testing emails to your own email address. To send emails to other recipients, please verify a domain.",
        );
      }

      const key = request.headers["idempotency-key"];
      if (typeof key === "string") {
        const earlier = byIdempotencyKey.get(key);
        if (earlier && earlier.body !== raw) {
          return problem(
            response,
            409,
            "invalid_idempotent_request",
            "Same idempotency key used with a different request payload.",
          );
        }
        if (earlier) return answer(response, 200, { id: earlier.id });
      }
      const id = randomUUID();
      if (typeof key === "string") byIdempotencyKey.set(key, { body: raw, id });
      sent.push({ id, body });
      answer(response, 200, { id });
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    sent,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
