"use client";

import { Link, usePathname } from "@/i18n/navigation";

export interface NavItem {
  /** The page's path without the locale (`/tasks`); links keep the current locale. */
  href: string;
  label: string;
}

/**
 * The signed-in user's sections. The link of the page shown is marked aria-current="page"; the section holding
 * it (Settings on /settings/profile) is marked aria-current="true".
 */
export function MainNav({ label, items }: { label: string; items: readonly NavItem[] }) {
  const pathname = usePathname(); // without the locale prefix
  return (
    <nav className="main-nav" aria-label={label}>
      <ul>
        {items.map(({ href, label: text }) => {
          const current = pathname === href ? "page" : pathname.startsWith(`${href}/`) ? "true" : undefined;
          return (
            <li key={href}>
              <Link href={href} aria-current={current}>
                {text}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
