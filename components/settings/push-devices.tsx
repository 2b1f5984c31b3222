"use client";

import { useFormatter, useTranslations } from "next-intl";
import { useCallback, useEffect, useState } from "react";
import { api, type Schemas } from "@/lib/api-client/client";
import type { PushResultOutput, SubscriptionOutput } from "@/lib/push/schema";
import { failureMessage } from "./notification-settings";

/*
 * Push notifications on /{locale}/settings/notifications: this browser's subscription (registers /sw.js, subscribes
 * with the server's VAPID key and hands `PushSubscription.toJSON()` to `POST /push/subscriptions`), a test message
 * with its outcome per device, and the list of the user's devices with removal. Every failure (no push support,
 * permission refused, the push service out of reach, the server without push) becomes a localized message.
 */

type Support = "checking" | "unsupported" | "ready" | "failed";
const OUTCOMES = { delivered: "outcomeDelivered", removed: "outcomeRemoved", failed: "outcomeFailed" } as const;
type Notice = { kind: "status" | "error"; text: string } | null;

/** \`PushSubscription.toJSON()\` as the API takes it (a subscription the browser made has its endpoint and both keys). */
function subscriptionBody(subscription: PushSubscription): Schemas["PushSubscriptionInput"] {
  const { endpoint = "", expirationTime, keys = {} } = subscription.toJSON();
  return { endpoint, expirationTime, keys: { p256dh: keys.p256dh ?? "", auth: keys.auth ?? "" } };
}

/** The bytes of a base64url text, as `applicationServerKey` takes them. */
function base64UrlBytes(value: string): Uint8Array<ArrayBuffer> {
  const base64 = value
    .replace(/-/g, "+")
    .replace(/_/g, "/")
    .padEnd(Math.ceil(value.length / 4) * 4, "=");
  return Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
}

function pushSupported(): boolean {
  return typeof window !== "undefined" && "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
}

export function PushDevices() {
  const t = useTranslations("NotificationSettings");
  const format = useFormatter();
  const [support, setSupport] = useState<Support>("checking");
  const [registration, setRegistration] = useState<ServiceWorkerRegistration | null>(null);
  const [subscription, setSubscription] = useState<PushSubscription | null>(null);
  const [vapidKey, setVapidKey] = useState<string | null>(null);
  const [devices, setDevices] = useState<SubscriptionOutput[] | null>(null);
  const [loadFailed, setLoadFailed] = useState(false);
  const [notice, setNotice] = useState<Notice>(null);
  const [testResult, setTestResult] = useState<PushResultOutput | null>(null);
  const [busy, setBusy] = useState(false);

  const loadDevices = useCallback(async () => {
    setLoadFailed(false);
    try {
      const answer = await api.GET("/api/v1/push/subscriptions");
      if (answer.ok) return setDevices(answer.body.items);
    } catch {
      // shown below
    }
    setLoadFailed(true);
  }, []);

  useEffect(() => {
    let cancelled = false;
    async function setUp() {
      if (!pushSupported()) return setSupport("unsupported");
      try {
        const worker = await navigator.serviceWorker.register("/sw.js");
        const current = await worker.pushManager.getSubscription();
        const key = await api.GET("/api/v1/push/vapid-public-key");
        if (cancelled) return;
        setRegistration(worker);
        setSubscription(current);
        if (key.ok && key.body.publicKey) {
          setVapidKey(key.body.publicKey);
          setSupport("ready");
        } else {
          setSupport("failed");
          setNotice({ kind: "error", text: t("pushServerUnavailable") });
        }
      } catch {
        if (cancelled) return;
        setSupport("failed");
        setNotice({ kind: "error", text: t("pushSetupFailed") });
      }
    }
    void setUp();
    void loadDevices();
    return () => {
      cancelled = true;
    };
  }, [loadDevices, t]);

  async function act(work: () => Promise<Notice>) {
    if (busy) return;
    setBusy(true);
    setNotice(null);
    setTestResult(null);
    try {
      setNotice(await work());
    } catch {
      setNotice({ kind: "error", text: t("errorGeneric") });
    } finally {
      setBusy(false);
    }
  }

  const turnOn = () =>
    act(async () => {
      if (!registration || !vapidKey) return { kind: "error", text: t("pushSetupFailed") };
      const permission = await Notification.requestPermission();
      if (permission !== "granted") return { kind: "error", text: t("pushDenied") };
      let created: PushSubscription;
      try {
        created = await registration.pushManager.subscribe({
          userVisibleOnly: true,
          applicationServerKey: base64UrlBytes(vapidKey),
        });
      } catch (error) {
        const name = error instanceof Error ? error.name : "";
        return { kind: "error", text: name === "NotAllowedError" ? t("pushDenied") : t("pushUnreachable") };
      }
      const answer = await api.POST("/api/v1/push/subscriptions", { body: subscriptionBody(created) });
      if (!answer.ok) {
        await created.unsubscribe().catch(() => false);
        return { kind: "error", text: answer.status === 400 ? t("pushSetupFailed") : failureMessage(t, answer.status) };
      }
      setSubscription(created);
      await loadDevices();
      return { kind: "status", text: t("turnedOn") };
    });

  const turnOff = () =>
    act(async () => {
      if (!subscription) return null;
      const endpoint = subscription.endpoint;
      await subscription.unsubscribe().catch(() => false);
      setSubscription(null);
      const answer = await api.POST("/api/v1/push/unsubscribe", { body: { endpoint } });
      await loadDevices();
      if (answer.status >= 400 && answer.status !== 404) return { kind: "error", text: failureMessage(t, answer.status) };
      return { kind: "status", text: t("turnedOff") };
    });

  const sendTest = () =>
    act(async () => {
      const answer = await api.POST("/api/v1/push/test");
      if (!answer.ok) return { kind: "error", text: failureMessage(t, answer.status) };
      setTestResult(answer.body);
      await loadDevices();
      const text =
        answer.body.status === "sent" ? t("testSent") : answer.body.status === "skipped" ? t("testSkipped") : t("testFailed");
      return { kind: answer.body.status === "sent" ? "status" : "error", text };
    });

  const remove = (device: SubscriptionOutput) =>
    act(async () => {
      const answer = await api.DELETE("/api/v1/push/subscriptions/{id}", { params: { path: { id: device.id } } });
      if (!answer.ok && answer.status !== 404) return { kind: "error", text: failureMessage(t, answer.status) };
      if (subscription?.endpoint === device.endpoint) {
        await subscription.unsubscribe().catch(() => false);
        setSubscription(null);
      }
      await loadDevices();
      return { kind: "status", text: t("removed") };
    });

  const state =
    support === "checking"
      ? t("pushChecking")
      : support === "unsupported"
        ? t("pushUnsupported")
        : support === "failed"
          ? null
          : subscription
            ? t("pushOn")
            : t("pushOff");

  return (
    <section
      className="auth-card"
      aria-labelledby="push-title"
      data-push-state={support === "ready" ? (subscription ? "on" : "off") : support}
    >
      <h2 id="push-title">{t("pushTitle")}</h2>
      <p className="auth-lead">{t("pushLead")}</p>
      {state && <p className="push-state">{state}</p>}
      {notice?.kind === "error" ? (
        <p className="auth-form-error" role="alert">
          {notice.text}
        </p>
      ) : (
        <p className="auth-status" role="status">
          {notice?.text ?? ""}
        </p>
      )}
      {testResult && testResult.devices.length > 0 && (
        <ul className="push-test-result">
          {testResult.devices.map((device) => (
            <li key={device.subscriptionId}>
              <span dir="auto">{device.userAgent ?? t("unknownBrowser")}</span>: {t(OUTCOMES[device.outcome])}
            </li>
          ))}
        </ul>
      )}
      <div className="auth-buttons">
        {support === "ready" && !subscription && (
          <button className="button primary" type="button" disabled={busy} aria-busy={busy} onClick={() => void turnOn()}>
            {t("turnOn")}
          </button>
        )}
        {support === "ready" && subscription && (
          <button className="button" type="button" disabled={busy} aria-busy={busy} onClick={() => void turnOff()}>
            {t("turnOff")}
          </button>
        )}
        {devices !== null && devices.length > 0 && (
          <button className="button" type="button" disabled={busy} aria-busy={busy} onClick={() => void sendTest()}>
            {t("sendTest")}
          </button>
        )}
      </div>

      <h3 id="push-devices-title">{t("devicesTitle")}</h3>
      {devices === null && !loadFailed && <p>{t("loading")}</p>}
      {loadFailed && (
        <div>
          <p className="auth-form-error" role="alert">
            {t("devicesLoadFailed")}
          </p>
          <button className="button" type="button" onClick={() => void loadDevices()}>
            {t("retry")}
          </button>
        </div>
      )}
      {devices !== null && devices.length === 0 && <p>{t("devicesEmpty")}</p>}
      {devices !== null && devices.length > 0 && (
        <ul className="push-devices" aria-labelledby="push-devices-title">
          {devices.map((device) => (
            <li key={device.id} data-device-id={device.id}>
              <strong dir="auto">{device.userAgent ?? t("unknownBrowser")}</strong>
              {subscription?.endpoint === device.endpoint && <> ({t("thisBrowser")})</>}
              <br />
              <span>
                {t("addedOn", { date: format.dateTime(new Date(device.createdAt), { dateStyle: "medium", timeStyle: "short" }) })}
              </span>{" "}
              <button className="button" type="button" disabled={busy} onClick={() => void remove(device)}>
                {t("remove")}
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
