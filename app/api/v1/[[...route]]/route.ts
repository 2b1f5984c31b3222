import { apiApp } from "@/server/api";
import { toApiPath } from "@/lib/api/paths";

/**
 * When Next alone serves the app (`next start`), the same Hono API answers here; server.ts hands these
 * paths to Hono before Next sees them. Next passes the URL as requested (`/auth/login`, before its
 * rewrite), so it is mapped to the `/api/v1` path the same way server.ts maps it.
 */
function handle(request: Request) {
  const url = new URL(request.url);
  url.pathname = toApiPath(url.pathname) ?? url.pathname;
  const forwarded = new Request(url, request);
  // Next compresses what a route handler answers (and drops a Content-Encoding set here): the API must not compress
  // as well, or the client gets compressed bytes it is not told about.
  forwarded.headers.delete("accept-encoding");
  return apiApp().fetch(forwarded);
}

export { handle as DELETE, handle as GET, handle as HEAD, handle as OPTIONS, handle as PATCH, handle as POST, handle as PUT };
export const dynamic = "force-dynamic";
