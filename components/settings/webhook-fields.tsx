"use client";

import { useTranslations } from "next-intl";
import { useId, useState } from "react";
import { invalidFields } from "@/components/auth/call-api";
import type { DomainEventType } from "@/lib/events/types";

/*
 * The fields of a webhook endpoint, for adding one and for changing one on /{locale}/settings/webhooks: its URL,
 * a note, and the events it gets (all of them, which includes types added later, or a chosen few). Errors come
 * from the API's 400 problem (`errors[].pointer`) or from the form itself (no event chosen), each shown next to
 * its field in the page's language.
 */

export type WebhookField = "url" | "description" | "events";
export type WebhookFieldErrors = Partial<Record<WebhookField, string>>;
type T = ReturnType<typeof useTranslations<"WebhookSettings">>;

/** What the fields hold, in the shape `POST /webhooks` and `PATCH /webhooks/{id}` take. */
export interface WebhookValues {
  url: string;
  description: string;
  /** Empty: every event type. */
  events: string[];
}

/** The localized message of each field a 400 problem names. */
export function webhookFieldErrors(t: T, body: unknown): WebhookFieldErrors {
  const messages: Record<WebhookField, string> = {
    url: t("errorUrl"),
    description: t("errorDescription"),
    events: t("errorEvents"),
  };
  const errors: WebhookFieldErrors = {};
  for (const field of invalidFields(body)) if (field in messages) errors[field as WebhookField] = messages[field as WebhookField];
  return errors;
}

/** A message for an answer that is neither a success nor about a field. */
export function webhookFailureMessage(t: T, status: number): string {
  if (status === 401) return t("errorSignedOut");
  if (status === 404) return t("errorGone");
  if (status === 429) return t("errorRateLimited");
  return t("errorGeneric");
}

/** The message key of an event type's meaning: `task.created` → `eventNames.task_created`. */
export function eventNameKey(type: string): string {
  return `eventNames.${type.replaceAll(".", "_")}`;
}

function FieldError({ id, message }: { id: string; message?: string }) {
  if (!message) return null;
  return (
    <p id={id} className="auth-field-error" role="alert">
      {message}
    </p>
  );
}

/**
 * The inputs, uncontrolled except for the events choice. The form reads them with `readWebhookValues`; `events`
 * comes back as null when "only these" has nothing ticked.
 */
export function WebhookFields({
  eventTypes,
  initial,
  errors,
}: {
  eventTypes: readonly string[];
  initial?: WebhookValues;
  errors: WebhookFieldErrors;
}) {
  const t = useTranslations("WebhookSettings");
  const id = useId();
  const [chosen, setChosen] = useState(Boolean(initial?.events.length));
  const described = (field: WebhookField, hint?: boolean) =>
    [hint && `${id}-${field}-hint`, errors[field] && `${id}-${field}-error`].filter(Boolean).join(" ") || undefined;
  return (
    <>
      <div className="auth-field">
        <label htmlFor={`${id}-url`}>{t("urlLabel")}</label>
        <input
          id={`${id}-url`}
          name="url"
          type="url"
          inputMode="url"
          autoComplete="url"
          spellCheck={false}
          required
          maxLength={2000}
          defaultValue={initial?.url}
          placeholder="https://"
          dir="ltr"
          aria-invalid={errors.url ? true : undefined}
          aria-describedby={described("url", true)}
        />
        <p id={`${id}-url-hint`} className="auth-hint">
          {t("urlHint")}
        </p>
        <FieldError id={`${id}-url-error`} message={errors.url} />
      </div>
      <div className="auth-field">
        <label htmlFor={`${id}-description`}>{t("descriptionLabel")}</label>
        <input
          id={`${id}-description`}
          name="description"
          type="text"
          autoComplete="off"
          maxLength={500}
          defaultValue={initial?.description}
          dir="auto"
          aria-invalid={errors.description ? true : undefined}
          aria-describedby={described("description")}
        />
        <FieldError id={`${id}-description-error`} message={errors.description} />
      </div>
      <fieldset className="auth-field webhook-events" aria-describedby={described("events")}>
        <legend>{t("eventsLegend")}</legend>
        <label className="webhook-choice">
          <input type="radio" name="eventsMode" value="all" checked={!chosen} onChange={() => setChosen(false)} />{" "}
          {t("eventsAll")}
        </label>
        <label className="webhook-choice">
          <input type="radio" name="eventsMode" value="chosen" checked={chosen} onChange={() => setChosen(true)} />{" "}
          {t("eventsChosen")}
        </label>
        {chosen && (
          <ul className="webhook-event-list">
            {eventTypes.map((type) => (
              <li key={type}>
                <label className="webhook-choice">
                  <input type="checkbox" name="events" value={type} defaultChecked={initial?.events.includes(type)} />
                  <span>
                    {t(eventNameKey(type))}{" "}
                    <code className="webhook-code" dir="ltr">
                      {type}
                    </code>
                  </span>
                </label>
              </li>
            ))}
          </ul>
        )}
        <FieldError id={`${id}-events-error`} message={errors.events} />
      </fieldset>
    </>
  );
}

/** The values of a form holding `WebhookFields`; `events` null when "only these" has none ticked. */
export function readWebhookValues(form: HTMLFormElement): Omit<WebhookValues, "events"> & { events: DomainEventType[] | null } {
  const data = new FormData(form);
  // The boxes are the event types this page lists (the server refuses any other).
  const events = data.get("eventsMode") === "chosen" ? (data.getAll("events").map(String) as DomainEventType[]) : [];
  return {
    url: String(data.get("url") ?? "").trim(),
    description: String(data.get("description") ?? "").trim(),
    events: data.get("eventsMode") === "chosen" && events.length === 0 ? null : events,
  };
}
