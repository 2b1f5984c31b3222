"use client";

import { useTranslations } from "next-intl";
import { useState } from "react";
import type { NotificationListOutput } from "@/lib/notifications/schema";
import { NotificationItem } from "./notification-item";
import { useInbox } from "./use-inbox";

/*
 * /{locale}/notifications: every notification of the user, newest first, a page at a time ("Show more"), each
 * marked read one by one or all at once; new ones arrive on the socket at the top.
 */

export function NotificationCenter({
  unread,
  page,
  pageSize,
  timeZone,
}: {
  unread: number;
  page: NotificationListOutput;
  pageSize: number;
  timeZone: string;
}) {
  const t = useTranslations("Inbox");
  const inbox = useInbox({ unread, page, pageSize });
  const [announcement, setAnnouncement] = useState("");
  const [loadingMore, setLoadingMore] = useState(false);
  const items = inbox.items ?? [];

  async function markAllRead() {
    setAnnouncement((await inbox.markAllRead()) ? t("allMarkedRead") : t("errorGeneric"));
  }

  async function markRead(notification: (typeof items)[number]) {
    setAnnouncement((await inbox.markRead(notification)) ? t("markedRead", { title: notification.title }) : t("errorGeneric"));
  }

  async function loadMore() {
    setLoadingMore(true);
    await inbox.loadMore();
    setLoadingMore(false);
  }

  return (
    <div className="inbox-page">
      <header className="inbox-page-head">
        <div>
          <h1>{t("title")}</h1>
          <p className="auth-lead">{t("unreadStatus", { count: inbox.unread })}</p>
          <p className={`task-live task-live-${inbox.live}`}>{t(`live.${inbox.live}`)}</p>
        </div>
        {inbox.unread > 0 && (
          <button type="button" className="button" onClick={() => void markAllRead()}>
            {t("markAllRead")}
          </button>
        )}
      </header>
      <p className="inbox-visually-hidden" role="status">
        {announcement}
      </p>
      {inbox.loadFailed && (
        <p className="inbox-item-error" role="alert">
          {t("loadError")}
        </p>
      )}
      <section className="task-card" aria-labelledby="inbox-list-title">
        <h2 id="inbox-list-title" className="inbox-visually-hidden">
          {t("listTitle")}
        </h2>
        {items.length === 0 ? (
          <p className="inbox-empty">{t("empty")}</p>
        ) : (
          <ul className="inbox-list">
            {items.map((notification) => (
              <NotificationItem
                key={notification.id}
                notification={notification}
                timeZone={timeZone}
                onRead={(item) => void markRead(item)}
                onAnnounce={setAnnouncement}
              />
            ))}
          </ul>
        )}
        {inbox.nextCursor && (
          <button
            type="button"
            className="button inbox-more"
            disabled={loadingMore}
            aria-busy={loadingMore}
            onClick={() => void loadMore()}
          >
            {t("showMore")}
          </button>
        )}
      </section>
    </div>
  );
}
