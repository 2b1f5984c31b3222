/*
 * The security headers of every page (Next.js renders them; proxy.ts sets these on each answer). The policy follows
 * Next.js's guide to a strict Content-Security-Policy with a nonce (node_modules/next/dist/docs/01-app/02-guides/
 * content-security-policy.md): a fresh nonce per request, which Next puts on its own scripts and inline styles;
 * 'strict-dynamic' lets the scripts those load run; no 'unsafe-inline' or 'unsafe-eval' for scripts (development
 * alone needs eval, for React's error overlay). Styles: `<style>` elements need the nonce; style attributes
 * (`style="…"`, which React and Swagger UI write) are allowed by `style-src-attr` (they cannot run code).
 */

export interface PageHeaderOptions {
  /** The request's nonce (base64). */
  nonce: string;
  /** APP_URL: https there adds HSTS and upgrade-insecure-requests. */
  appUrl: string | undefined;
  /** The host the page was asked for: the socket at /ws is on the same origin (ws: or wss:). */
  host: string;
  development: boolean;
}

/** A fresh nonce: 16 random bytes, base64. */
export function newNonce(): string {
  return btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(16))));
}

/** One year, as HSTS preload lists ask; subdomains are left to their own answers. */
const HSTS = "max-age=31536000";

export function contentSecurityPolicy({ nonce, appUrl, host, development }: PageHeaderOptions): string {
  const https = appUrl?.startsWith("https:") ?? false;
  const directives = [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${development ? " 'unsafe-eval'" : ""}`,
    `style-src 'self' 'nonce-${nonce}'`,
    "style-src-attr 'unsafe-inline'",
    // Avatars may be any https address; media previews are blobs.
    "img-src 'self' data: blob: https:",
    "media-src 'self' blob:",
    "font-src 'self' data:",
    `connect-src 'self' ws://${host} wss://${host}`,
    "worker-src 'self'",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    ...(https ? ["upgrade-insecure-requests"] : []),
  ];
  return directives.join("; ");
}

/** Every security header of a page answer, the CSP among them. */
export function pageSecurityHeaders(options: PageHeaderOptions): [string, string][] {
  return [
    ["Content-Security-Policy", contentSecurityPolicy(options)],
    // For browsers without frame-ancestors; both say: never in a frame.
    ["X-Frame-Options", "DENY"],
    ["X-Content-Type-Options", "nosniff"],
    ["Referrer-Policy", "strict-origin-when-cross-origin"],
    ["Cross-Origin-Opener-Policy", "same-origin"],
    ...(options.appUrl?.startsWith("https:") ? ([["Strict-Transport-Security", HSTS]] as [string, string][]) : []),
  ];
}

/** HSTS for the API's answers too, when the public address is https. */
export function strictTransportSecurity(appUrl: string | undefined): [string, string][] {
  return appUrl?.startsWith("https:") ? [["Strict-Transport-Security", HSTS]] : [];
}
