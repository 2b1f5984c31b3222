"use client";

import { useLocale } from "next-intl";
import { Link, usePathname } from "@/i18n/navigation";
import { ChevronDownIcon } from "./shell-icons";
import { useDisclosure } from "./use-disclosure";

export interface NavItem {
  /** The page's path without the locale (`/tasks`); links keep the current locale. */
  href: string;
  label: string;
}

/**
 * How a link relates to the page shown (`pathname`, without the locale): "page" for the page itself, "true" for
 * the section holding it (Settings on /settings/profile), undefined otherwise. The value of aria-current.
 */
export function currentOf(pathname: string, href: string): "page" | "true" | undefined {
  if (pathname === href) return "page";
  return pathname.startsWith(`${href}/`) ? "true" : undefined;
}

/** A list of section links, the current one marked; the header's row, the More menu and the account menu use it. */
export function NavLinks({ items, className, id }: { items: readonly NavItem[]; className?: string; id?: string }) {
  const pathname = usePathname();
  return (
    <ul className={className} id={id}>
      {items.map(({ href, label }) => (
        <li key={href}>
          <Link href={href} aria-current={currentOf(pathname, href)}>
            {label}
          </Link>
        </li>
      ))}
    </ul>
  );
}

/**
 * The signed-in user's sections in one row that never wraps: the `daily` ones as links, the `more` ones under a
 * "More" button (a disclosure, components/ui/use-disclosure.ts). When the page shown belongs to a section under
 * More, the button says so (aria-current="true" and the same mark as a current link). The phone menu shows
 * both lists as they are (shell.css).
 */
export function MainNav(props: { label: string; moreLabel: string; daily: readonly NavItem[]; more: readonly NavItem[] }) {
  const { label, moreLabel, daily, more } = props;
  const pathname = usePathname();
  const { open, rootProps, buttonProps, panelProps } = useDisclosure(`${useLocale()}${pathname}`);
  const holdsCurrent = more.some(({ href }) => currentOf(pathname, href));
  return (
    <nav className="main-nav" aria-label={label}>
      <NavLinks items={daily} />
      {more.length > 0 && (
        <div className="main-nav-more menu-root" data-open={open || undefined} {...rootProps}>
          <button className="menu-toggle" aria-current={holdsCurrent || undefined} {...buttonProps}>
            <span>{moreLabel}</span>
            <ChevronDownIcon size={16} />
          </button>
          <NavLinks items={more} className="menu-panel" {...panelProps} />
        </div>
      )}
    </nav>
  );
}
