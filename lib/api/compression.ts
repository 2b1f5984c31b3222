import { createHash } from "node:crypto";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import type { MiddlewareHandler } from "hono";
import type { ApiEnv } from "./env";

/*
 * Compression of the API's answers (docs/operations-extras.md): JSON and text of at least COMPRESS_MIN_BYTES, with
 * brotli or gzip as the client's Accept-Encoding allows, through node:zlib (the compression runs on libuv's thread
 * pool, not on the event loop). Already compressed media (images, ZIP, audio, video), event streams and answers that
 * say `Cache-Control: no-transform` go out as they are. Every answer that could be compressed says
 * `Vary: Accept-Encoding`, compressed or not, so that a cache keeps one copy per encoding.
 */

/** Bodies below this many bytes are sent as they are: compressing them saves less than it costs. */
export const COMPRESS_MIN_BYTES = 1024;

export type Encoding = "br" | "gzip";

/** JSON (and `+json`), XML, JavaScript, SVG and text other than event streams. */
const COMPRESSIBLE =
  /^\s*(?:application\/(?:[\w.-]+\+)?(?:json|xml)|application\/javascript|image\/svg\+xml|text\/(?!event-stream)[\w.+-]+)\s*(?:;|$)/i;
const NO_TRANSFORM = /(?:^|,)\s*no-transform\s*(?:,|$)/i;

/** Whether an answer of this type (and Cache-Control) may be compressed at all. */
export function compressibleType(contentType: string | null | undefined, cacheControl?: string | null): boolean {
  return !!contentType && COMPRESSIBLE.test(contentType) && !(cacheControl && NO_TRANSFORM.test(cacheControl));
}

/**
 * The encoding to answer with for an Accept-Encoding header (RFC 9110 §12.5.3): the one with the highest q, brotli
 * before gzip at equal q; `*` stands for any encoding not named; q=0 refuses. Null: send the body as it is.
 */
export function chooseEncoding(acceptEncoding: string | string[] | undefined): Encoding | null {
  const header = Array.isArray(acceptEncoding) ? acceptEncoding.join(",") : acceptEncoding;
  if (!header) return null;
  const weights = new Map<string, number>();
  for (const part of header.split(",")) {
    const [name = "", ...parameters] = part.split(";").map((piece) => piece.trim().toLowerCase());
    if (!name) continue;
    const q = parameters.find((parameter) => parameter.startsWith("q="));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    weights.set(name, Number.isFinite(weight) ? weight : 0);
  }
  const weightOf = (encoding: Encoding) => weights.get(encoding) ?? weights.get("*") ?? 0;
  const best = (["br", "gzip"] as const).reduce<Encoding | null>(
    (chosen, encoding) => (weightOf(encoding) > (chosen ? weightOf(chosen) : 0) ? encoding : chosen),
    null,
  );
  return best;
}

const brotli = promisify(brotliCompress);
/**
 * For a body compressed once and kept. Measured on /openapi.json (637 KB): quality 6 gives 72 KB in about 70 ms,
 * 11 gives 64 KB in 5-7 s, which the first request after a start would wait for.
 */
const STATIC_BROTLI_QUALITY = 6;
const gzipped = promisify(gzip);

/**
 * The body compressed. `effort: "dynamic"` (every answer) uses brotli quality 4 and gzip level 6, which cost about
 * as much CPU as each other; `"static"` (a body compressed once and kept, such as /openapi.json) brotli quality 6 and gzip level 9.
 */
export async function compressBody(
  body: Uint8Array,
  encoding: Encoding,
  effort: "dynamic" | "static" = "dynamic",
): Promise<Buffer> {
  if (encoding === "br") {
    return brotli(body, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: effort === "static" ? STATIC_BROTLI_QUALITY : 4,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: body.byteLength,
      },
    });
  }
  return gzipped(body, { level: effort === "static" ? constants.Z_BEST_COMPRESSION : constants.Z_DEFAULT_COMPRESSION });
}

/** `Vary` with `Accept-Encoding` added (once) to what it already says. */
export function varyWithAcceptEncoding(vary: string | null | undefined): string {
  if (!vary) return "Accept-Encoding";
  if (vary.trim() === "*" || /(?:^|,)\s*accept-encoding\s*(?:,|$)/i.test(vary)) return vary;
  return `${vary}, Accept-Encoding`;
}

/** A strong ETag made weak: the compressed bytes are not the bytes the strong tag names (RFC 9110 §8.8.3). */
export function weakened(etag: string): string {
  return etag.startsWith("W/") ? etag : `W/${etag}`;
}

/**
 * Compresses the answers of the Hono app (everything but the task list's fast path, which calls compressBody
 * itself). Runs after the handler, on the finished Response; the body is read only when the type is compressible
 * and the client accepts an encoding.
 */
export const compressAnswers: MiddlewareHandler<ApiEnv> = async (c, next) => {
  await next();
  if (c.req.method === "HEAD") return;
  // Only the head is read until the body is to be compressed: reading `body` of @hono/node-server's lightweight
  // Response turns it into a full one, and the answer then loses its cheap way out.
  const response = c.res;
  if (response.headers.has("content-encoding")) return;
  if (!compressibleType(response.headers.get("content-type"), response.headers.get("cache-control"))) return;
  response.headers.set("Vary", varyWithAcceptEncoding(response.headers.get("vary")));
  const encoding = chooseEncoding(c.req.header("accept-encoding"));
  if (!encoding || !response.body) return;
  const body = new Uint8Array(await response.arrayBuffer());
  const headers = new Headers(response.headers);
  let sent: Uint8Array = body;
  if (body.byteLength >= COMPRESS_MIN_BYTES) {
    sent = await compressBody(body, encoding);
    headers.set("Content-Encoding", encoding);
    const etag = headers.get("etag");
    if (etag) headers.set("ETag", weakened(etag));
  }
  headers.set("Content-Length", String(sent.byteLength));
  // Unset first: Hono's setter would copy the old head over the new one.
  c.res = undefined as unknown as Response;
  c.res = new Response(sent as BodyInit, { status: response.status, statusText: response.statusText, headers });
};

/** A body kept with its compressed forms, made once (each encoding on first request) and its strong ETag. */
export class PrecompressedBody {
  readonly etag: string;
  private readonly encoded = new Map<Encoding, Promise<Buffer>>();

  constructor(readonly body: Buffer) {
    this.etag = `"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`;
  }

  /** The body to send for an Accept-Encoding header, with its encoding and the ETag of those bytes. */
  async for(acceptEncoding: string | undefined): Promise<{ body: Buffer; encoding: Encoding | null; etag: string }> {
    const encoding = this.body.byteLength >= COMPRESS_MIN_BYTES ? chooseEncoding(acceptEncoding) : null;
    if (!encoding) return { body: this.body, encoding: null, etag: this.etag };
    let encoded = this.encoded.get(encoding);
    if (!encoded) {
      encoded = compressBody(this.body, encoding, "static");
      this.encoded.set(encoding, encoded);
    }
    // Each representation has its own strong tag: a cache must not answer a gzip request with brotli bytes.
    return { body: await encoded, encoding, etag: `${this.etag.slice(0, -1)}-${encoding}"` };
  }
}
