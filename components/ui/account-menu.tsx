"use client";

import { useLocale } from "next-intl";
import { SignOutButton } from "@/components/auth/sign-out-button";
import { usePathname } from "@/i18n/navigation";
import { PersonIcon } from "./icons";
import { ChevronDownIcon } from "./shell-icons";
import { useDisclosure } from "./use-disclosure";

/**
 * The signed-in user in the header: a button with their name opening their email address and the sign-out
 * button, which leads to the home page (`home`) signed out. The phone menu shows these as they are (shell.css).
 */
export function AccountMenu({ name, email, home }: { name: string; email: string; home: string }) {
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
        <SignOutButton destination={home} />
      </div>
    </div>
  );
}
