"use client";

import { useFormatter, useTranslations } from "next-intl";
import { useCallback, useEffect, useRef, useState } from "react";
import { api } from "@/lib/api-client/client";
import { SecurityListItem } from "./security-list-item";

/*
 * The signed-in user's sessions on /{locale}/settings/security (`GET /api/v1/auth/sessions`): each sign-in with its
 * browser and system, the address it signed in from, when it signed in and was last active, and how; this browser's
 * is marked. "Sign out" ends one (`DELETE /api/v1/auth/sessions/{id}`): its token stops working at once; ending this
 * browser's own goes to the sign-in page. Outcomes are announced in a status region, failures as alerts.
 */

export interface SessionItem {
  id: string;
  current: boolean;
  method: string;
  browser: string | null;
  os: string | null;
  deviceType: string | null;
  ipAddress: string | null;
  createdAt: string;
  lastUsedAt: string;
}

/** `password`, `passkey`, `oauth:google`...: the key of the message that says how the session began. */
function methodKey(method: string): string {
  if (method.startsWith("oauth:")) return "external";
  if (method === "password-change") return "passwordChange";
  return ["password", "registration", "passkey", "invitation"].includes(method) ? method : "other";
}

export function SessionList({ signInHref }: { signInHref: string }) {
  const t = useTranslations("Security");
  const format = useFormatter();
  const [sessions, setSessions] = useState<SessionItem[] | null>(null);
  const [loadFailed, setLoadFailed] = useState(false);
  const [status, setStatus] = useState("");
  const [busy, setBusy] = useState<string | null>(null);
  const [rowError, setRowError] = useState<string | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);

  const load = useCallback(async () => {
    try {
      const answer = await api.GET("/api/v1/auth/sessions");
      if (answer.status === 401) return window.location.assign(signInHref);
      if (!answer.ok) return setLoadFailed(true);
      setSessions(answer.body.items);
      setLoadFailed(false);
    } catch {
      setLoadFailed(true);
    }
  }, [signInHref]);

  useEffect(() => {
    void load();
  }, [load]);

  const date = (iso: string) => format.dateTime(new Date(iso), { dateStyle: "medium", timeStyle: "short" });
  const device = (session: SessionItem) =>
    session.browser && session.os
      ? t("sessionDevice", { browser: session.browser, os: session.os })
      : (session.browser ?? session.os ?? t("sessionUnknownDevice"));

  async function end(session: SessionItem) {
    if (busy) return;
    setBusy(session.id);
    setRowError(null);
    try {
      const answer = await api.DELETE("/api/v1/auth/sessions/{id}", { params: { path: { id: session.id } } });
      if (answer.status === 401 || (session.current && (answer.status === 204 || answer.status === 404))) {
        return window.location.assign(signInHref);
      }
      if (answer.status !== 204 && answer.status !== 404) return setRowError(session.id);
      setSessions((list) => list?.filter((item) => item.id !== session.id) ?? null);
      heading.current?.focus();
      setStatus(t("sessionEnded", { device: device(session) }));
    } catch {
      setRowError(session.id);
    } finally {
      setBusy(null);
    }
  }

  return (
    <section className="auth-card" aria-labelledby="sessions-title">
      <h2 id="sessions-title" ref={heading} tabIndex={-1}>
        {t("sessionsTitle")}
      </h2>
      <p className="auth-lead">{t("sessionsLead")}</p>
      <p className="auth-status" role="status">
        {status}
      </p>
      {sessions === null && !loadFailed && <p className="passkey-empty">{t("sessionsLoading")}</p>}
      {loadFailed && (
        <div className="passkey-load-error">
          <p role="alert">{t("sessionsLoadError")}</p>
          <button className="button" type="button" onClick={() => void load()}>
            {t("retry")}
          </button>
        </div>
      )}
      {sessions !== null && sessions.length > 0 && (
        <ul className="passkey-list" aria-labelledby="sessions-title">
          {sessions.map((session) => (
            <SecurityListItem
              key={session.id}
              idPrefix={`session-${session.id}`}
              attributes={{ "data-session-id": session.id }}
              name={device(session)}
              label={session.current ? t("sessionThisDevice") : null}
              facts={[
                { term: t("sessionSignedIn"), value: <time dateTime={session.createdAt}>{date(session.createdAt)}</time> },
                { term: t("sessionLastActive"), value: <time dateTime={session.lastUsedAt}>{date(session.lastUsedAt)}</time> },
                {
                  term: t("sessionAddress"),
                  value: <bdi dir="ltr">{session.ipAddress ?? t("sessionUnknownAddress")}</bdi>,
                },
                { term: t("sessionMethodLabel"), value: t("sessionMethod", { method: methodKey(session.method) }) },
              ]}
              error={rowError === session.id ? t("errorGeneric") : null}
              action={{
                label: t("sessionEnd"),
                workingLabel: t("working"),
                busy: busy === session.id,
                onClick: () => void end(session),
              }}
            />
          ))}
        </ul>
      )}
    </section>
  );
}
