"use client";

import { useFormatter, useTranslations } from "next-intl";
import { useCallback, useEffect, useState } from "react";
import { api } from "@/lib/api-client/client";
import type { DeliveryOutput } from "@/lib/webhooks/schema";
import { eventNameKey, webhookFailureMessage } from "./webhook-fields";

/*
 * An endpoint's recent deliveries (`GET /webhooks/{id}/deliveries`), newest first, loaded when the disclosure is
 * opened and again whenever `version` changes (a test was sent): when, which event, how it went (the HTTP status
 * or the error the last attempt met, and when the next attempt is due) and how many attempts it took. A finished
 * delivery can be sent again (`.../replay`).
 */

const PAGE_SIZE = 10;
const TEST_MESSAGE_TYPE = "webhook.test";

export function WebhookDeliveries({ endpointId, enabled, version }: { endpointId: string; enabled: boolean; version: number }) {
  const t = useTranslations("WebhookSettings");
  const format = useFormatter();
  const [open, setOpen] = useState(false);
  const [items, setItems] = useState<DeliveryOutput[] | null>(null);
  const [nextCursor, setNextCursor] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState("");
  const [busy, setBusy] = useState(false);

  const load = useCallback(
    async (cursor?: string) => {
      setError(null);
      try {
        const answer = await api.GET("/api/v1/webhooks/{id}/deliveries", {
          params: { path: { id: endpointId }, query: { limit: PAGE_SIZE, ...(cursor && { cursor }) } },
        });
        if (!answer.ok) return setError(webhookFailureMessage(t, answer.status));
        const page = answer.body;
        setItems((shown) => (cursor ? [...(shown ?? []), ...page.items] : page.items));
        setNextCursor(page.nextCursor);
      } catch {
        setError(t("errorGeneric"));
      }
    },
    [endpointId, t],
  );

  useEffect(() => {
    if (open) void load();
  }, [open, version, load]);

  async function replay(delivery: DeliveryOutput) {
    setBusy(true);
    setStatus("");
    try {
      const answer = await api.POST("/api/v1/webhooks/{id}/deliveries/{deliveryId}/replay", {
        params: { path: { id: endpointId, deliveryId: delivery.id } },
      });
      if (!answer.ok) {
        setError(answer.status === 409 ? t("errorReplay") : webhookFailureMessage(t, answer.status));
      } else {
        setStatus(answer.body.status === "succeeded" ? t("replaySucceeded") : t("replayFailed"));
        await load();
      }
    } catch {
      setError(t("errorGeneric"));
    } finally {
      setBusy(false);
    }
  }

  const when = (iso: string) => format.dateTime(new Date(iso), { dateStyle: "medium", timeStyle: "medium" });

  function outcome(delivery: DeliveryOutput): string {
    const last = delivery.lastStatusCode !== null ? t("httpStatus", { code: delivery.lastStatusCode }) : delivery.lastError;
    if (delivery.status === "succeeded") return t("deliverySucceeded", { detail: last ?? "" });
    if (delivery.status === "failed") return t("deliveryFailed", { detail: last ?? "" });
    if (delivery.attemptCount === 0 || !last) return t("deliveryWaiting");
    return t("deliveryRetrying", { detail: last, date: delivery.nextAttemptAt ? when(delivery.nextAttemptAt) : "" });
  }

  return (
    <details className="webhook-deliveries" onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary>{t("deliveriesTitle")}</summary>
      <p className="auth-status" role="status">
        {status}
      </p>
      {error && (
        <div className="settings-actions">
          <p className="auth-form-error" role="alert">
            {error}
          </p>
          <button className="button" type="button" onClick={() => void load()}>
            {t("retry")}
          </button>
        </div>
      )}
      {open && items === null && !error && <p>{t("loading")}</p>}
      {items?.length === 0 && <p>{t("deliveriesEmpty")}</p>}
      {items && items.length > 0 && (
        <ul className="webhook-delivery-list">
          {items.map((delivery) => (
            <li key={delivery.id} className="webhook-delivery" data-status={delivery.status}>
              <span className={`webhook-badge ${delivery.status}`}>{t(`deliveryStatus.${delivery.status}`)}</span>
              <span className="webhook-delivery-event">
                {delivery.eventType === TEST_MESSAGE_TYPE ? t("testMessage") : t(eventNameKey(delivery.eventType))}{" "}
                <code className="webhook-code" dir="ltr">
                  {delivery.eventType}
                </code>
              </span>
              <span className="webhook-delivery-time">{when(delivery.createdAt)}</span>
              <span className="webhook-delivery-outcome">
                {outcome(delivery)} · {t("attempts", { count: delivery.attemptCount })}
              </span>
              {delivery.status !== "pending" && enabled && (
                <button className="button" type="button" disabled={busy} onClick={() => void replay(delivery)}>
                  {t("replay")}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {nextCursor && (
        <button className="button" type="button" onClick={() => void load(nextCursor)}>
          {t("moreDeliveries")}
        </button>
      )}
    </details>
  );
}
