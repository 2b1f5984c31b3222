import type { Metadata } from "next";
import "../globals.css";
import "./invite.css";

/**
 * The public invitation pages (/invite/{token}) live outside the locale prefix: their language comes from
 * `?lang=` or Accept-Language, which a layout cannot read, so each page renders its own `<html lang dir>`
 * (see invite-shell.tsx) and this layout adds nothing but styles and what holds for every such page.
 */
export const metadata: Metadata = {
  // The token is the permission: keep the pages out of indexes and the link out of Referer headers.
  robots: { index: false, follow: false, nocache: true },
  referrer: "no-referrer",
};

export default function InviteLayout({ children }: { children: React.ReactNode }) {
  return children;
}
