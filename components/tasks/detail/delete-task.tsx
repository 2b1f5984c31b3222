"use client";

import { useTranslations } from "next-intl";
import { useEffect, useId, useRef, useState } from "react";
import { FormError } from "@/components/auth/form-field";
import { noAnswer, useFailureMessage } from "./task-api";
import { api } from "@/lib/api-client/client";

/*
 * Deleting the task with its subtasks, after a confirmation that names it. Focus moves into the confirmation
 * when it opens and back to the button when it is cancelled; once deleted, the page goes to the task list.
 */

interface DeleteTaskProps {
  taskId: string;
  title: string;
  /** Called once the task is gone (the page leaves for the task list). */
  onDeleted(): void;
}

export function DeleteTask({ taskId, title, onDeleted }: DeleteTaskProps) {
  const t = useTranslations("TaskDetail");
  const id = useId();
  const failure = useFailureMessage();
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const opener = useRef<HTMLButtonElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const wasConfirming = useRef(false);

  useEffect(() => {
    if (confirming) cancel.current?.focus();
    else if (wasConfirming.current) opener.current?.focus();
    wasConfirming.current = confirming;
  }, [confirming]);

  async function remove() {
    setBusy(true);
    const answer = await api.DELETE("/api/v1/tasks/{id}", { params: { path: { id: taskId } } }).catch(noAnswer);
    if (answer.ok) return onDeleted();
    setBusy(false);
    setError(failure(answer.status));
  }

  return (
    <section className="task-card task-danger" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t("deleteTitle")}</h2>
      <FormError id={`${id}-error`} message={error} />
      {confirming ? (
        <div role="group" aria-labelledby={`${id}-question`} className="task-confirm">
          <p id={`${id}-question`} className="settings-warning">
            {t("deleteQuestion", { title })}
          </p>
          <div className="task-buttons">
            <button type="button" className="button danger" disabled={busy} aria-busy={busy} onClick={() => void remove()}>
              {t("deleteConfirm")}
            </button>
            <button ref={cancel} type="button" className="button" disabled={busy} onClick={() => setConfirming(false)}>
              {t("deleteCancel")}
            </button>
          </div>
        </div>
      ) : (
        <button ref={opener} type="button" className="button danger" onClick={() => setConfirming(true)}>
          {t("deleteButton")}
        </button>
      )}
    </section>
  );
}
