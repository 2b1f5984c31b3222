"use client";

import { useFormatter, useTranslations } from "next-intl";
import { useState } from "react";
import { api } from "@/lib/api-client/client";
import { Link } from "@/i18n/navigation";
import type { NotificationOutput } from "@/lib/notifications/schema";

/*
 * One in-app notification, whatever its kind: its title and body as the API wrote them (in the user's language),
 * when it came, whether it is new, and a link to its task when it has one. Kinds added later show the same way.
 * A request the user is to decide (`collaboration.requested`, still pending) carries accept and reject buttons
 * (the requests API); until it is accepted the user may not see the task, so its link leads to the requests page.
 */

/** What the user did with a request from its notification, or found out it was decided already. */
type Decision = "accepted" | "rejected" | "gone";

interface NotificationItemProps {
  notification: NotificationOutput;
  timeZone: string;
  /** Marks it read (the caller calls the API and updates its lists). */
  onRead(notification: NotificationOutput): void;
  /** Says what happened in the caller's status region. */
  onAnnounce(message: string): void;
  /** Closes the panel it is in, when it is in one (after following its link). */
  onFollow?(): void;
}

function requestToDecide(notification: NotificationOutput): string | null {
  const { requestId, state } = notification.data as { requestId?: unknown; state?: unknown };
  if (notification.kind !== "collaboration.requested" || typeof requestId !== "string") return null;
  return state === undefined || state === "pending" ? requestId : null;
}

export function NotificationItem({ notification, timeZone, onRead, onAnnounce, onFollow }: NotificationItemProps) {
  const t = useTranslations("Inbox");
  const format = useFormatter();
  const [decision, setDecision] = useState<Decision | null>(null);
  const [busy, setBusy] = useState<"accept" | "reject" | null>(null);
  const [error, setError] = useState<string>();
  const requestId = requestToDecide(notification);
  const undecided = requestId !== null && decision === null;
  // A request not accepted yet: the task may be hidden from the user, so the link goes to the requests page.
  const href =
    requestId !== null && decision !== "accepted" ? "/requests" : notification.taskId ? `/tasks/${notification.taskId}` : null;
  const titleId = `notification-${notification.id}`;

  async function decide(action: "accept" | "reject") {
    if (!requestId) return;
    setBusy(action);
    setError(undefined);
    const answer = await api
      .POST(`/api/v1/collaboration-requests/{id}/${action}` as const, { params: { path: { id: requestId } } })
      .catch(() => null);
    setBusy(null);
    if (answer?.ok) {
      setDecision(action === "accept" ? "accepted" : "rejected");
      onAnnounce(t(action === "accept" ? "acceptedAnnouncement" : "rejectedAnnouncement", { title: notification.title }));
      if (!notification.read) onRead(notification);
      return;
    }
    if (answer?.status === 404 || answer?.status === 409) {
      setDecision("gone");
      return setError(t("errorNoLongerPending"));
    }
    setError(answer?.status === 401 ? t("errorSignedOut") : t("errorGeneric"));
  }

  function follow() {
    if (!notification.read) onRead(notification);
    onFollow?.();
  }

  return (
    <li className="inbox-item" data-unread={notification.read ? undefined : ""} aria-labelledby={titleId}>
      <div className="inbox-item-text">
        <p className="inbox-item-title" id={titleId}>
          {!notification.read && <span className="inbox-new">{t("new")}</span>}
          {href ? (
            <Link href={href} onClick={follow} dir="auto">
              {notification.title}
            </Link>
          ) : (
            <strong dir="auto">{notification.title}</strong>
          )}
        </p>
        {notification.body && (
          <p className="inbox-item-body" dir="auto">
            {notification.body}
          </p>
        )}
        <p className="inbox-item-meta">
          <time dateTime={notification.createdAt}>
            {format.dateTime(new Date(notification.createdAt), { dateStyle: "medium", timeStyle: "short", timeZone })}
          </time>
          {decision === "accepted" && <span> · {t("accepted")}</span>}
          {decision === "rejected" && <span> · {t("rejected")}</span>}
        </p>
        {error && (
          <p className="inbox-item-error" role="alert">
            {error}
          </p>
        )}
      </div>
      <div className="inbox-item-actions">
        {undecided && (
          <>
            <button
              type="button"
              className="button primary"
              disabled={busy !== null}
              aria-busy={busy === "accept"}
              aria-describedby={titleId}
              onClick={() => void decide("accept")}
            >
              {t("accept")}
            </button>
            <button
              type="button"
              className="button"
              disabled={busy !== null}
              aria-busy={busy === "reject"}
              aria-describedby={titleId}
              onClick={() => void decide("reject")}
            >
              {t("reject")}
            </button>
          </>
        )}
        {!notification.read && (
          <button type="button" className="button" aria-describedby={titleId} onClick={() => onRead(notification)}>
            {t("markRead")}
          </button>
        )}
      </div>
    </li>
  );
}
