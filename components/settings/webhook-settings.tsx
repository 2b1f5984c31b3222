"use client";

import { useTranslations } from "next-intl";
import { useRef, useState } from "react";
import { api } from "@/lib/api-client/client";
import { FormError } from "@/components/auth/form-field";
import type { CreatedEndpointOutput, EndpointOutput } from "@/lib/webhooks/schema";
import { WebhookEndpointCard } from "./webhook-endpoint";
import {
  readWebhookValues,
  WebhookFields,
  webhookFailureMessage,
  webhookFieldErrors,
  type WebhookFieldErrors,
} from "./webhook-fields";
import { WebhookSecret } from "./webhook-secret";

/*
 * /{locale}/settings/webhooks: adding an endpoint (`POST /webhooks`, then `PATCH enabled: false` when it is to
 * start paused), its secret shown once, and the list of the user's endpoints, each with its own actions.
 */

export function WebhookSettings({
  initial,
  eventTypes,
  failureLimit,
  maxEndpoints,
}: {
  initial: EndpointOutput[];
  eventTypes: readonly string[];
  failureLimit: number;
  maxEndpoints: number;
}) {
  const t = useTranslations("WebhookSettings");
  const [endpoints, setEndpoints] = useState(initial);
  const [created, setCreated] = useState<CreatedEndpointOutput | null>(null);
  const [errors, setErrors] = useState<{ form?: string; fields: WebhookFieldErrors }>({ fields: {} });
  const [status, setStatus] = useState("");
  /** Announces what happened in the list (a deletion: the card that would say it is gone). */
  const [listStatus, setListStatus] = useState("");
  const [busy, setBusy] = useState(false);
  // A new form after each creation: the fields start empty again.
  const [formKey, setFormKey] = useState(0);
  const listHeading = useRef<HTMLHeadingElement>(null);

  async function create(form: HTMLFormElement) {
    const values = readWebhookValues(form);
    const active = new FormData(form).get("active") === "on";
    if (values.events === null) return setErrors({ form: t("errorSummary"), fields: { events: t("errorNoEvents") } });
    const answer = await api.POST("/api/v1/webhooks", {
      body: {
        url: values.url,
        events: values.events,
        ...(values.description && { description: values.description }),
      },
    });
    if (answer.ok) {
      let endpoint: EndpointOutput = answer.body;
      if (!active) {
        const paused = await api.PATCH("/api/v1/webhooks/{id}", {
          params: { path: { id: endpoint.id } },
          body: { enabled: false },
        });
        if (paused.ok) endpoint = paused.body;
      }
      setEndpoints((list) => [...list, endpoint]);
      setCreated(answer.body);
      setFormKey((key) => key + 1);
      return setStatus(endpoint.enabled ? t("created") : t("createdPaused"));
    }
    if (answer.status === 400) {
      const fields = webhookFieldErrors(t, answer.body);
      return setErrors({ form: Object.keys(fields).length ? t("errorSummary") : t("errorGeneric"), fields });
    }
    if (answer.status === 409) return setErrors({ form: t("errorTooMany", { max: maxEndpoints }), fields: {} });
    setErrors({ form: webhookFailureMessage(t, answer.status), fields: {} });
  }

  return (
    <>
      <section className="auth-card" aria-labelledby="webhook-create-title">
        <h2 id="webhook-create-title">{t("createTitle")}</h2>
        <FormError id="webhook-create-error" message={errors.form} />
        <p className="auth-status" role="status">
          {status}
        </p>
        {created && (
          <WebhookSecret
            secret={created.secret}
            url={created.url}
            onDone={() => {
              setCreated(null);
              listHeading.current?.focus();
            }}
          />
        )}
        <form
          key={formKey}
          className="auth-form webhook-form"
          noValidate
          aria-describedby={errors.form ? "webhook-create-error" : undefined}
          onSubmit={async (event) => {
            event.preventDefault();
            if (busy) return;
            const form = event.currentTarget;
            setBusy(true);
            setErrors({ fields: {} });
            setStatus("");
            try {
              await create(form);
            } catch {
              setErrors({ form: t("errorGeneric"), fields: {} });
            } finally {
              setBusy(false);
            }
          }}
        >
          <WebhookFields eventTypes={eventTypes} errors={errors.fields} />
          <label className="webhook-choice">
            <input type="checkbox" name="active" defaultChecked /> {t("activeLabel")}
          </label>
          <button className="button primary" type="submit" disabled={busy} aria-busy={busy}>
            {busy ? t("creating") : t("create")}
          </button>
        </form>
      </section>

      <section className="auth-card" aria-labelledby="webhook-list-title">
        <h2 id="webhook-list-title" ref={listHeading} tabIndex={-1}>
          {t("listTitle")}
        </h2>
        <p className="auth-status" role="status">
          {listStatus}
        </p>
        {endpoints.length === 0 ? (
          <p>{t("empty")}</p>
        ) : (
          <ul className="webhook-list">
            {endpoints.map((endpoint) => (
              <WebhookEndpointCard
                key={endpoint.id}
                endpoint={endpoint}
                eventTypes={eventTypes}
                failureLimit={failureLimit}
                onChange={(changed) => setEndpoints((list) => list.map((item) => (item.id === changed.id ? changed : item)))}
                onDelete={(deleted) => {
                  setEndpoints((list) => list.filter((item) => item.id !== deleted));
                  setListStatus(t("deleted"));
                  listHeading.current?.focus();
                }}
              />
            ))}
          </ul>
        )}
      </section>
    </>
  );
}
