"use client";

import { useLocale, useTranslations } from "next-intl";
import { usePathname } from "@/i18n/navigation";
import { CloseIcon, MenuIcon } from "./shell-icons";
import { useDisclosure } from "./use-disclosure";

/**
 * The header's links and controls (`children`). A wide screen shows them in a row and hides the button; a phone
 * shows only the button, which opens them in a panel under the header (shell.css).
 */
export function HeaderMenu({ children }: { children: React.ReactNode }) {
  const t = useTranslations("Nav");
  const page = `${useLocale()}${usePathname()}`;
  const { open, rootProps, buttonProps, panelProps } = useDisclosure(page);
  return (
    <div className="header-menu" data-open={open || undefined} {...rootProps}>
      <button className="header-menu-button" {...buttonProps}>
        {open ? <CloseIcon size={22} /> : <MenuIcon size={22} />}
        <span>{t("menu")}</span>
      </button>
      <div className="header-panel" {...panelProps}>
        {children}
      </div>
    </div>
  );
}
