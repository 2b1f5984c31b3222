import { connection } from "next/server";

/**
 * The pages bring their own `<html>`: app/[locale]/layout.tsx (with lang and dir), app/docs/layout.tsx
 * and app/not-found.tsx. This root only exists so that the unlocalized 404 page has a layout, and so that every
 * page is rendered per request: each answer's scripts carry that request's CSP nonce (proxy.ts), which a page
 * rendered at build time cannot.
 */
export default async function RootLayout({ children }: { children: React.ReactNode }) {
  await connection();
  return children;
}
