"use client";

import { useLocale } from "next-intl";
import { SignOutButton } from "@/components/auth/sign-out-button";
import { usePathname } from "@/i18n/navigation";
import { PersonIcon } from "./icons";
import { NavLinks, type NavItem } from "./main-nav";
import { ChevronDownIcon } from "./shell-icons";
import { useDisclosure } from "./use-disclosure";

interface Props {
  name: string;
  email: string;
  /** The account's own sections: Settings, and Admin for administrators. */
  links: readonly NavItem[];
  /** Where signing out leads: the home page, signed out. */
  home: string;
}

/**
 * The signed-in user in the header: a button with their name opening their email address, their sections
 * (Settings, Admin; the current one marked) and the sign-out button. The phone menu shows these as they are
 * (shell.css).
 */
export function AccountMenu({ name, email, links, home }: Props) {
  const page = `${useLocale()}${usePathname()}`;
  const { open, rootProps, buttonProps, panelProps } = useDisclosure(page);
  return (
    <div className="account-menu menu-root" data-open={open || undefined} {...rootProps}>
      <button className="menu-toggle" {...buttonProps}>
        <PersonIcon size={18} />
        <span className="account-name">{name}</span>
        <ChevronDownIcon size={16} />
      </button>
      <div className="menu-panel" {...panelProps}>
        <p className="account-who">
          <strong>{name}</strong>
          <span dir="ltr">{email}</span>
        </p>
        <NavLinks items={links} className="account-links" />
        <SignOutButton destination={home} />
      </div>
    </div>
  );
}
