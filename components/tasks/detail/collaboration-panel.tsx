"use client";

import { useTranslations } from "next-intl";
import { useId, useRef, useState } from "react";
import { fieldErrors } from "@/components/auth/call-api";
import { FormError } from "@/components/auth/form-field";
import { RequestItem } from "@/components/requests/request-item";
import { pendingFirst } from "@/components/requests/request-lists";
import type { CollaborationRequestOutput, CreateRequestInput } from "@/lib/collaboration/schema";
import { noAnswer, useFailureMessage, type Announce, type TaskAbilities } from "./task-api";
import { api } from "@/lib/api-client/client";

/*
 * Asking someone by email to take part in the task (`POST /tasks/{id}/collaboration-requests`; to assign or to
 * collaborate this is an invitation to that address, answered 202 whether or not it has an account): to be
 * assigned, to collaborate, or (the owner only) to take it over; they accept or decline on their requests page.
 * Below, this task's requests that the user sent or received, pending first, with withdraw, accept and decline.
 */

type Kind = "assign" | "collaborate" | "transfer";
type Field = "email" | "message" | "kind";

const MESSAGE_MAX = 2000;

interface CollaborationPanelProps {
  taskId: string;
  meId: string;
  can: TaskAbilities;
  requests: CollaborationRequestOutput[];
  now: string;
  timeZone: string;
  /** A request was sent or changed (null: read the list again). */
  onRequestChanged(request: CollaborationRequestOutput | null): void;
  announce: Announce;
}

export function CollaborationPanel({
  taskId,
  meId,
  can,
  requests,
  now,
  timeZone,
  onRequestChanged,
  announce,
}: CollaborationPanelProps) {
  const t = useTranslations("TaskDetail");
  const id = useId();
  const failure = useFailureMessage();
  const form = useRef<HTMLFormElement>(null);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [formError, setFormError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const kinds: Kind[] = [
    ...(can.share ? (["collaborate", "assign"] as const) : []),
    ...(can.transfer ? (["transfer"] as const) : []),
  ];

  async function send(data: FormData) {
    const email = String(data.get("email") ?? "").trim();
    const message = String(data.get("message") ?? "").trim();
    if (!email) return setErrors({ email: t("errorRecipient") });
    setBusy(true);
    const answer = await api
      .POST("/api/v1/tasks/{id}/collaboration-requests", {
        params: { path: { id: taskId } },
        // One of the kinds the radio buttons offer (the server refuses any other).
        body: { kind: String(data.get("kind")) as CreateRequestInput["kind"], email, ...(message ? { message } : {}) },
      })
      .catch(noAnswer);
    setBusy(false);
    // 201: the request to a user; 202 (asked by email): an invitation to that address.
    if (answer.ok && "recipient" in answer.body) {
      setErrors({});
      setFormError(undefined);
      form.current?.reset();
      announce(t("requestSent", { name: answer.body.recipient.name }));
      return onRequestChanged(answer.body);
    }
    // Asked by email: an invitation to that address, whether or not it has an account (the answer does not say).
    if (answer.status === 202) {
      setErrors({});
      setFormError(undefined);
      form.current?.reset();
      return announce(t("invitationSent", { email }));
    }
    if (answer.status === 400) {
      const named = fieldErrors(answer.body, {
        email: data.get("kind") === "transfer" ? t("errorTransferByEmail") : t("errorRecipient"),
        message: t("errorMessage", { max: MESSAGE_MAX }),
        kind: t("errorInvalid"),
      });
      setErrors(named);
      return setFormError(Object.keys(named).length ? undefined : t("errorInvalid"));
    }
    setErrors({});
    setFormError(answer.status === 409 ? t("errorAlreadyAsked") : failure(answer.status));
  }

  const mine = pendingFirst(requests);
  if (kinds.length === 0 && mine.length === 0) return null;

  return (
    <section className="task-card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t("collaborationTitle")}</h2>
      {kinds.length > 0 && (
        <form
          ref={form}
          className="auth-form"
          noValidate
          aria-describedby={formError ? `${id}-form-error` : undefined}
          onSubmit={(event) => {
            event.preventDefault();
            if (!busy) void send(new FormData(event.currentTarget));
          }}
        >
          <p className="auth-hint">{t("collaborationLead")}</p>
          <FormError id={`${id}-form-error`} message={formError} />
          <div className="auth-field">
            <label htmlFor={`${id}-kind`}>{t("requestKindLabel")}</label>
            <select id={`${id}-kind`} name="kind" defaultValue={kinds[0]}>
              {kinds.map((kind) => (
                <option key={kind} value={kind}>
                  {t(`requestKind.${kind}`)}
                </option>
              ))}
            </select>
          </div>
          <div className="auth-field">
            <label htmlFor={`${id}-email`}>{t("recipientLabel")}</label>
            <input
              id={`${id}-email`}
              name="email"
              type="email"
              autoComplete="off"
              dir="ltr"
              aria-invalid={errors.email ? true : undefined}
              aria-describedby={errors.email ? `${id}-email-error` : `${id}-email-hint`}
            />
            <p id={`${id}-email-hint`} className="auth-hint">
              {t("recipientHint")}
            </p>
            {errors.email && (
              <p id={`${id}-email-error`} className="auth-field-error" role="alert">
                {errors.email}
              </p>
            )}
          </div>
          <div className="auth-field">
            <label htmlFor={`${id}-message`}>{t("requestMessageLabel")}</label>
            <textarea
              id={`${id}-message`}
              name="message"
              rows={2}
              maxLength={MESSAGE_MAX}
              dir="auto"
              aria-invalid={errors.message ? true : undefined}
              aria-describedby={errors.message ? `${id}-message-error` : undefined}
            />
            {errors.message && (
              <p id={`${id}-message-error`} className="auth-field-error" role="alert">
                {errors.message}
              </p>
            )}
          </div>
          <button type="submit" className="button primary" disabled={busy} aria-busy={busy}>
            {t("sendRequest")}
          </button>
        </form>
      )}
      <h3 id={`${id}-history`}>{t("requestHistoryTitle")}</h3>
      {mine.length === 0 ? (
        <p className="auth-hint">{t("noRequests")}</p>
      ) : (
        <ul className="requests" aria-labelledby={`${id}-history`}>
          {mine.map((item) => (
            <RequestItem key={item.id} request={item} meId={meId} now={now} timeZone={timeZone} onChanged={onRequestChanged} />
          ))}
        </ul>
      )}
    </section>
  );
}
