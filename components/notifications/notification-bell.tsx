"use client";

import { useLocale, useTranslations } from "next-intl";
import { useEffect, useState } from "react";
import { Link, usePathname } from "@/i18n/navigation";
import { BellIcon } from "@/components/ui/shell-icons";
import { useDisclosure } from "@/components/ui/use-disclosure";
import { NotificationItem } from "./notification-item";
import { useInbox } from "./use-inbox";

/*
 * The bell in the header: a button with the unread count (its name says it, and a polite live region announces
 * when it changes), opening a panel with the newest notifications, "mark all read" and a link to the full page.
 * The count follows the socket (components/notifications/use-inbox.ts). Escape, a click elsewhere or the focus
 * leaving close the panel (components/ui/use-disclosure.ts).
 */

/** How many notifications the panel shows; the page shows the rest. */
const PANEL_SIZE = 8;

export function NotificationBell({ unread: initialUnread, timeZone }: { unread: number; timeZone: string }) {
  const t = useTranslations("Inbox");
  const page = `${useLocale()}${usePathname()}`;
  const { open, rootProps, buttonProps, panelProps } = useDisclosure(page);
  const inbox = useInbox({ unread: initialUnread, pageSize: PANEL_SIZE });
  const [announcement, setAnnouncement] = useState("");
  const { items, load } = inbox;

  useEffect(() => {
    if (open && items === null) void load();
  }, [open, items, load]);

  async function markAllRead() {
    setAnnouncement((await inbox.markAllRead()) ? t("allMarkedRead") : t("errorGeneric"));
  }

  const shown = items?.slice(0, PANEL_SIZE);
  return (
    <div className="inbox-bell menu-root" data-open={open || undefined} {...rootProps}>
      <button
        className="header-round-button inbox-bell-button"
        {...buttonProps}
        aria-label={t("bellLabel", { count: inbox.unread })}
        data-testid="notification-bell"
        data-live={inbox.live}
      >
        <BellIcon size={20} />
        {inbox.unread > 0 && (
          <span className="inbox-badge" aria-hidden="true">
            {inbox.unread > 99 ? "99+" : inbox.unread}
          </span>
        )}
      </button>
      <span className="inbox-visually-hidden" role="status" aria-live="polite">
        {t("unreadStatus", { count: inbox.unread })}
      </span>
      <div className="inbox-panel" role="region" aria-label={t("panelLabel")} {...panelProps} hidden={!open}>
        <div className="inbox-panel-head">
          <h2>{t("title")}</h2>
          {inbox.unread > 0 && (
            <button type="button" className="button" onClick={() => void markAllRead()}>
              {t("markAllRead")}
            </button>
          )}
        </div>
        <p className="inbox-visually-hidden" role="status">
          {announcement}
        </p>
        {inbox.loadFailed ? (
          <p className="inbox-empty" role="alert">
            {t("loadError")}
          </p>
        ) : shown === undefined ? (
          <p className="inbox-empty">{t("loading")}</p>
        ) : shown.length === 0 ? (
          <p className="inbox-empty">{t("empty")}</p>
        ) : (
          <ul className="inbox-list">
            {shown.map((notification) => (
              <NotificationItem
                key={notification.id}
                notification={notification}
                timeZone={timeZone}
                onRead={(item) => void inbox.markRead(item)}
                onAnnounce={setAnnouncement}
              />
            ))}
          </ul>
        )}
        <p className="inbox-panel-foot">
          <Link href="/notifications">{t("seeAll")}</Link>
        </p>
      </div>
    </div>
  );
}
