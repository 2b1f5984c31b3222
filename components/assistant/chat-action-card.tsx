"use client";

import { useFormatter, useTranslations } from "next-intl";
import { useState } from "react";
import { api } from "@/lib/api-client/client";
import type { ChatActionOutput } from "@/lib/assistant/schema";

/*
 * An action the assistant proposed (add a task, move one), with Confirm and Dismiss while it is proposed, and
 * what became of it afterwards (a link to the task it created or moved). Each is decided once: the API answers
 * 409 to a second decision, 404 when the task is gone or may not be changed.
 */

type Decision = "confirm" | "dismiss";

interface Props {
  action: ChatActionOutput;
  locale: string;
  timeZone: string;
  onDecided: (action: ChatActionOutput) => void;
}

export function ChatActionCard({ action, locale, timeZone, onDecided }: Props) {
  const t = useTranslations("Chat");
  const format = useFormatter();
  const [busy, setBusy] = useState<Decision | null>(null);
  const [error, setError] = useState<string | null>(null);

  const due = action.dueAt
    ? format.dateTime(new Date(action.dueAt), {
        timeZone,
        weekday: "short",
        day: "numeric",
        month: "short",
        hour: "numeric",
        minute: "2-digit",
      })
    : null;
  let label: string;
  if (action.kind === "reschedule_task") label = t("actionReschedule", { title: action.title, due: due ?? "" });
  else label = due ? t("actionCreateDue", { title: action.title, due }) : t("actionCreate", { title: action.title });

  async function decide(decision: Decision) {
    setBusy(decision);
    setError(null);
    try {
      // Confirming answers the action with the task; dismissing, the action alone.
      const answer = await api.POST(`/api/v1/chat/actions/{id}/${decision}` as const, { params: { path: { id: action.id } } });
      if (answer.ok) return onDecided("action" in answer.body ? answer.body.action : answer.body);
      if (answer.status === 404) setError(t("actionGone"));
      else if (answer.status === 409) setError(t("actionDecided"));
      else if (answer.status === 400) setError(t("actionRefused"));
      else setError(t("errorGeneric"));
    } catch {
      setError(t("errorGeneric"));
    } finally {
      setBusy(null);
    }
  }

  return (
    <div className={`chat-action chat-action-${action.state}`}>
      <p className="chat-action-label">
        <span className="chat-action-kind">{t("proposed")}</span> {label}
      </p>
      {action.state === "proposed" && (
        <div className="chat-action-buttons">
          <button
            type="button"
            className="button primary"
            onClick={() => decide("confirm")}
            disabled={busy !== null}
            aria-busy={busy === "confirm"}
          >
            {t("confirm")}
          </button>
          <button
            type="button"
            className="button"
            onClick={() => decide("dismiss")}
            disabled={busy !== null}
            aria-busy={busy === "dismiss"}
          >
            {t("dismiss")}
          </button>
        </div>
      )}
      <p className="chat-action-outcome" role="status">
        {action.state === "confirmed" && (
          <>
            {t("confirmed")} {action.taskId && <a href={`/${locale}/tasks/${action.taskId}`}>{t("openTask")}</a>}
          </>
        )}
        {action.state === "dismissed" && t("dismissed")}
      </p>
      {error && (
        <p className="chat-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
