"use client";

import { useFormatter, useTranslations } from "next-intl";
import { useId, useState } from "react";
import { api } from "@/lib/api-client/client";
import { DueDate } from "@/components/tasks/task-fields";
import type { CollaborationRequestOutput } from "@/lib/collaboration/schema";
import { boxOf } from "./request-lists";

/*
 * One collaboration request as its parties see it, on the requests inbox and in a task's request history: who
 * asked whom for what, the note, when, its state, and what the user may do now (the recipient accepts or
 * declines a pending request, the requester withdraws it).
 */

type Action = "accept" | "reject" | "withdraw";

interface RequestItemProps {
  request: CollaborationRequestOutput;
  meId: string;
  /** Shown with its task's title (the inbox), linking to the task when the user can open it. */
  taskHref?: string;
  now: string;
  timeZone: string;
  /** The request as it is after an action (or after a 409: read it again). */
  onChanged(request: CollaborationRequestOutput | null): void;
}

export function RequestItem({ request, meId, taskHref, now, timeZone, onChanged }: RequestItemProps) {
  const t = useTranslations("Requests");
  const format = useFormatter();
  const id = useId();
  const [busy, setBusy] = useState<Action | null>(null);
  const [error, setError] = useState<string>();
  const box = boxOf(request, meId);
  const other = box === "incoming" ? request.requester : request.recipient;
  const pending = request.state === "pending";
  const when = (iso: string) => format.dateTime(new Date(iso), { dateStyle: "medium", timeStyle: "short" });
  // Before accepting, the recipient may not see the task: no link that would lead to "not found".
  const canOpen = box === "outgoing" || request.state === "accepted";

  async function act(action: Action) {
    setBusy(action);
    setError(undefined);
    const answer = await api
      .POST(`/api/v1/collaboration-requests/{id}/${action}` as const, { params: { path: { id: request.id } } })
      .catch(() => null);
    setBusy(null);
    if (answer?.ok) return onChanged(answer.body);
    if (answer?.status === 404 || answer?.status === 409) {
      setError(t("errorNoLongerPending"));
      return onChanged(null);
    }
    setError(answer?.status === 401 ? t("errorSignedOut") : t("errorGeneric"));
  }

  return (
    <li className={`request request-${request.state}`}>
      {taskHref && (
        <p className="request-task">
          {canOpen ? (
            <a href={taskHref} dir="auto">
              {request.task.title}
            </a>
          ) : (
            <strong dir="auto">{request.task.title}</strong>
          )}
          {request.task.dueAt && (
            <DueDate
              dueAt={request.task.dueAt}
              now={now}
              timeZone={timeZone}
              finished={request.task.status === "done" || request.task.status === "cancelled"}
            />
          )}
        </p>
      )}
      <p id={`${id}-what`} className="request-what">
        {t(`${box}.${request.kind}`, { name: other.name })}
      </p>
      {request.message && (
        <blockquote className="request-message" dir="auto">
          {request.message}
        </blockquote>
      )}
      <p className="request-meta">
        <span className={`request-state request-state-${request.state}`}>{t(`state.${request.state}`)}</span>{" "}
        <span>
          {pending && request.expiresAt
            ? t("sentUntil", { sent: when(request.createdAt), expires: when(request.expiresAt) })
            : t("sentDecided", { sent: when(request.createdAt), decided: when(request.decidedAt ?? request.updatedAt) })}
        </span>
      </p>
      {pending && request.kind !== "claim" && (
        <div className="task-buttons">
          {box === "incoming" ? (
            <>
              <button
                type="button"
                className="button primary"
                disabled={busy !== null}
                aria-describedby={`${id}-what`}
                aria-busy={busy === "accept"}
                onClick={() => void act("accept")}
              >
                {t("accept")}
              </button>
              <button
                type="button"
                className="button"
                disabled={busy !== null}
                aria-describedby={`${id}-what`}
                aria-busy={busy === "reject"}
                onClick={() => void act("reject")}
              >
                {t("reject")}
              </button>
            </>
          ) : (
            <button
              type="button"
              className="button"
              disabled={busy !== null}
              aria-describedby={`${id}-what`}
              aria-busy={busy === "withdraw"}
              onClick={() => void act("withdraw")}
            >
              {t("withdraw")}
            </button>
          )}
        </div>
      )}
      {error && (
        <p className="auth-field-error" role="alert">
          {error}
        </p>
      )}
    </li>
  );
}
