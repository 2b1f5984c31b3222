"use client";

import { useFormatter, useTranslations } from "next-intl";
import { useEffect, useId, useRef, useState } from "react";
import { api } from "@/lib/api-client/client";
import type { EndpointOutput, RotatedSecretOutput } from "@/lib/webhooks/schema";
import { WebhookDeliveries } from "./webhook-deliveries";
import {
  eventNameKey,
  readWebhookValues,
  WebhookFields,
  webhookFailureMessage,
  webhookFieldErrors,
  type WebhookFieldErrors,
} from "./webhook-fields";
import { WebhookSecret } from "./webhook-secret";

/*
 * One webhook endpoint on /{locale}/settings/webhooks: where it sends, which events, whether it is active, and
 * what can be done with it: change it, pause or resume it (`PATCH enabled`), send a test (`POST .../test`, whose
 * first attempt is reported at once), make a new secret (shown once), delete it (after a confirmation), and its
 * recent deliveries.
 */

type Mode = "view" | "edit" | "confirmDelete" | "confirmRotate";
type Notice = { kind: "status" | "error"; text: string } | null;

export function WebhookEndpointCard({
  endpoint,
  eventTypes,
  failureLimit,
  onChange,
  onDelete,
}: {
  endpoint: EndpointOutput;
  eventTypes: readonly string[];
  /** After this many failed deliveries in a row the server pauses an endpoint itself. */
  failureLimit: number;
  onChange: (endpoint: EndpointOutput) => void;
  onDelete: (id: string) => void;
}) {
  const t = useTranslations("WebhookSettings");
  const format = useFormatter();
  const id = useId();
  const [mode, setMode] = useState<Mode>("view");
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<Notice>(null);
  const [errors, setErrors] = useState<WebhookFieldErrors>({});
  const [secret, setSecret] = useState<RotatedSecretOutput | null>(null);
  const [deliveriesVersion, setDeliveriesVersion] = useState(0);
  const form = useRef<HTMLFormElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const confirmButton = useRef<HTMLButtonElement>(null);

  /** Runs one action: one at a time, its outcome announced; failures of the network become a message too. */
  async function act(work: () => Promise<Notice>) {
    if (busy) return;
    setBusy(true);
    setNotice(null);
    try {
      setNotice(await work());
    } catch {
      setNotice({ kind: "error", text: t("errorGeneric") });
    } finally {
      setBusy(false);
    }
  }

  // Set by `show`: once the new mode is on screen, focus goes to its first control (or back to the heading).
  const focusPending = useRef(false);
  useEffect(() => {
    if (!focusPending.current) return;
    focusPending.current = false;
    if (mode === "edit") form.current?.querySelector("input")?.focus();
    else if (mode === "view") heading.current?.focus();
    else confirmButton.current?.focus();
  }, [mode]);

  function show(next: Mode) {
    focusPending.current = true;
    setMode(next);
    setErrors({});
    setNotice(null);
  }

  const save = () =>
    act(async () => {
      if (!form.current) return null;
      const { events, ...values } = readWebhookValues(form.current);
      if (events === null) {
        setErrors({ events: t("errorNoEvents") });
        return { kind: "error", text: t("errorSummary") };
      }
      const answer = await api.PATCH("/api/v1/webhooks/{id}", {
        params: { path: { id: endpoint.id } },
        body: { ...values, events },
      });
      if (answer.ok) {
        onChange(answer.body);
        show("view");
        return { kind: "status", text: t("saved") };
      }
      if (answer.status === 400) {
        const fields = webhookFieldErrors(t, answer.body);
        setErrors(fields);
        return { kind: "error", text: Object.keys(fields).length ? t("errorSummary") : t("errorGeneric") };
      }
      return { kind: "error", text: webhookFailureMessage(t, answer.status) };
    });

  const setEnabled = (enabled: boolean) =>
    act(async () => {
      const answer = await api.PATCH("/api/v1/webhooks/{id}", { params: { path: { id: endpoint.id } }, body: { enabled } });
      if (!answer.ok) return { kind: "error", text: webhookFailureMessage(t, answer.status) };
      onChange(answer.body);
      return { kind: "status", text: enabled ? t("resumed") : t("paused") };
    });

  const sendTest = () =>
    act(async () => {
      const answer = await api.POST("/api/v1/webhooks/{id}/test", { params: { path: { id: endpoint.id } } });
      setDeliveriesVersion((version) => version + 1);
      if (answer.status === 409) return { kind: "error", text: t("errorTestPaused") };
      if (!answer.ok) return { kind: "error", text: webhookFailureMessage(t, answer.status) };
      const attempt = answer.body.attempts.at(-1);
      if (answer.body.status === "succeeded")
        return { kind: "status", text: t("testSucceeded", { code: attempt?.statusCode ?? 200 }) };
      const detail = attempt?.statusCode != null ? t("httpStatus", { code: attempt.statusCode }) : (attempt?.error ?? "");
      return { kind: "error", text: t("testFailed", { detail }) };
    });

  const rotate = () =>
    act(async () => {
      const answer = await api.POST("/api/v1/webhooks/{id}/rotate-secret", { params: { path: { id: endpoint.id } } });
      setMode("view");
      if (!answer.ok) return { kind: "error", text: webhookFailureMessage(t, answer.status) };
      setSecret(answer.body);
      onChange({ ...endpoint, previousSecretExpiresAt: answer.body.previousSecretExpiresAt });
      return null;
    });

  const remove = () =>
    act(async () => {
      const answer = await api.DELETE("/api/v1/webhooks/{id}", { params: { path: { id: endpoint.id } } });
      if (answer.ok || answer.status === 404) {
        onDelete(endpoint.id);
        return null;
      }
      return { kind: "error", text: webhookFailureMessage(t, answer.status) };
    });

  const pausedByFailures = !endpoint.enabled && endpoint.consecutiveFailures >= failureLimit;

  return (
    <li className="webhook" data-webhook-id={endpoint.id} aria-labelledby={`${id}-title`}>
      <div className="webhook-head">
        <h3 id={`${id}-title`} ref={heading} tabIndex={-1} className="webhook-url" dir="ltr">
          {endpoint.url}
        </h3>
        <span className={`webhook-badge ${endpoint.enabled ? "active" : "paused"}`}>
          {endpoint.enabled ? t("statusActive") : t("statusPaused")}
        </span>
      </div>
      {endpoint.description && (
        <p className="webhook-description" dir="auto">
          {endpoint.description}
        </p>
      )}
      <p className="webhook-meta">
        {endpoint.events.length === 0
          ? t("eventsSummaryAll")
          : t("eventsSummaryChosen", {
              count: endpoint.events.length,
              list: endpoint.events.map((type) => t(eventNameKey(type))).join(", "),
            })}
      </p>
      <p className="webhook-meta">
        {t("createdOn", { date: format.dateTime(new Date(endpoint.createdAt), { dateStyle: "medium" }) })}
      </p>
      {pausedByFailures && <p className="settings-warning">{t("pausedByFailures", { count: endpoint.consecutiveFailures })}</p>}
      {endpoint.enabled && endpoint.consecutiveFailures > 0 && (
        <p className="settings-warning">{t("failingDeliveries", { count: endpoint.consecutiveFailures, limit: failureLimit })}</p>
      )}

      {notice?.kind === "error" ? (
        <p className="auth-form-error" role="alert">
          {notice.text}
        </p>
      ) : (
        <p className="auth-status" role="status">
          {notice?.text ?? ""}
        </p>
      )}

      {secret && (
        <WebhookSecret
          secret={secret.secret}
          url={endpoint.url}
          previousSecretExpiresAt={secret.previousSecretExpiresAt}
          onDone={() => {
            setSecret(null);
            heading.current?.focus();
          }}
        />
      )}

      {mode === "edit" ? (
        <form
          ref={form}
          className="auth-form webhook-form"
          noValidate
          aria-label={t("editTitle")}
          onSubmit={(event) => {
            event.preventDefault();
            void save();
          }}
        >
          <WebhookFields eventTypes={eventTypes} initial={endpoint} errors={errors} />
          <div className="settings-actions">
            <button className="button primary" type="submit" disabled={busy} aria-busy={busy}>
              {busy ? t("saving") : t("save")}
            </button>
            <button className="button" type="button" disabled={busy} onClick={() => show("view")}>
              {t("cancel")}
            </button>
          </div>
        </form>
      ) : mode === "confirmDelete" || mode === "confirmRotate" ? (
        <div className="settings-confirm" role="group" aria-labelledby={`${id}-question`}>
          <p id={`${id}-question`} className="settings-warning">
            {mode === "confirmDelete" ? t("deleteQuestion") : t("rotateQuestion")}
          </p>
          <div className="settings-actions">
            <button
              ref={confirmButton}
              className={`button ${mode === "confirmDelete" ? "danger" : "primary"}`}
              type="button"
              disabled={busy}
              aria-busy={busy}
              onClick={() => void (mode === "confirmDelete" ? remove() : rotate())}
            >
              {mode === "confirmDelete" ? t("deleteConfirm") : t("rotateConfirm")}
            </button>
            <button className="button" type="button" disabled={busy} onClick={() => show("view")}>
              {t("cancel")}
            </button>
          </div>
        </div>
      ) : (
        <div className="settings-actions">
          <button className="button" type="button" disabled={busy} onClick={() => show("edit")}>
            {t("edit")}
          </button>
          <button className="button" type="button" disabled={busy} onClick={() => void setEnabled(!endpoint.enabled)}>
            {endpoint.enabled ? t("pause") : t("resume")}
          </button>
          {endpoint.enabled && (
            <button className="button" type="button" disabled={busy} aria-busy={busy} onClick={() => void sendTest()}>
              {t("sendTest")}
            </button>
          )}
          <button className="button" type="button" disabled={busy} onClick={() => show("confirmRotate")}>
            {t("rotate")}
          </button>
          <button className="button danger" type="button" disabled={busy} onClick={() => show("confirmDelete")}>
            {t("delete")}
          </button>
        </div>
      )}

      <WebhookDeliveries endpointId={endpoint.id} enabled={endpoint.enabled} version={deliveriesVersion} />
    </li>
  );
}
