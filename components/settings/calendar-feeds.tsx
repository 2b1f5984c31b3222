"use client";

import { useFormatter, useTranslations } from "next-intl";
import { useState } from "react";
import { invalidFields } from "@/components/auth/call-api";
import { api, type Schemas } from "@/lib/api-client/client";
import { FormError } from "@/components/auth/form-field";
import type { CalendarFeedOutput, CreatedCalendarFeedOutput } from "@/lib/calendar-feeds/schema";
import { ShownOnce } from "./shown-once";

/*
 * /{locale}/settings/calendar: making a calendar feed (`POST /calendar-feeds`), its address shown once with a copy
 * button, and the list of the user's feeds, each with when a calendar app last fetched it and a revoke button
 * (`DELETE /calendar-feeds/{id}`).
 */

function FeedAddress({ url, onDone }: { url: string; onDone: () => void }) {
  const t = useTranslations("CalendarSettings");
  return (
    <ShownOnce
      value={url}
      labels={{
        title: t("addressTitle"),
        lead: t("addressLead"),
        field: t("addressLabel"),
        copy: t("copy"),
        copied: t("copied"),
        copyFailed: t("copyFailed"),
        done: t("addressDone"),
      }}
      onDone={onDone}
    />
  );
}

export function CalendarFeeds({ initial }: { initial: CalendarFeedOutput[] }) {
  const t = useTranslations("CalendarSettings");
  const format = useFormatter();
  const [feeds, setFeeds] = useState(initial);
  const [created, setCreated] = useState<CreatedCalendarFeedOutput | null>(null);
  const [error, setError] = useState<{ form?: string; name?: string }>({});
  const [status, setStatus] = useState("");
  const [busy, setBusy] = useState(false);
  const [name, setName] = useState("");

  async function create() {
    setBusy(true);
    setError({});
    try {
      const answer = await api.POST("/api/v1/calendar-feeds", {
        // Left out, the name is the server's default ("Calendar"); the generated type marks a field with a default
        // as required (it always is in answers).
        body: (name.trim() ? { name } : {}) as Schemas["CreateCalendarFeed"],
      });
      if (answer.ok) {
        const { url: _url, ...feed } = answer.body;
        setFeeds((list) => [feed, ...list]);
        setCreated(answer.body);
        setName("");
        return setStatus(t("created"));
      }
      if (answer.status === 400 && invalidFields(answer.body).includes("name")) {
        return setError({ form: t("errorSummary"), name: t("errorName") });
      }
      setError({ form: t("errorGeneric") });
    } catch {
      setError({ form: t("errorNetwork") });
    } finally {
      setBusy(false);
    }
  }

  async function revoke(feed: CalendarFeedOutput) {
    if (!window.confirm(t("revokeConfirm", { name: feed.name }))) return;
    try {
      const answer = await api.DELETE("/api/v1/calendar-feeds/{id}", { params: { path: { id: feed.id } } });
      if (!answer.ok && answer.status !== 404) return setStatus(t("errorGeneric"));
      setFeeds((list) => list.filter((item) => item.id !== feed.id));
      if (created?.id === feed.id) setCreated(null);
      setStatus(t("revoked", { name: feed.name }));
    } catch {
      setStatus(t("errorNetwork"));
    }
  }

  return (
    <>
      <section className="auth-card" aria-labelledby="calendar-create-title">
        <h2 id="calendar-create-title">{t("createTitle")}</h2>
        <p className="auth-hint">{t("createHint")}</p>
        <FormError id="calendar-create-error" message={error.form} />
        <form
          className="auth-form"
          onSubmit={(event) => {
            event.preventDefault();
            void create();
          }}
        >
          <div className="auth-field">
            <label htmlFor="calendar-feed-name">{t("nameLabel")}</label>
            <input
              id="calendar-feed-name"
              name="name"
              type="text"
              maxLength={100}
              placeholder={t("namePlaceholder")}
              value={name}
              onChange={(event) => setName(event.target.value)}
              aria-invalid={error.name ? true : undefined}
              aria-describedby={error.name ? "calendar-feed-name-error" : undefined}
            />
            {error.name && (
              <p id="calendar-feed-name-error" className="auth-field-error">
                {error.name}
              </p>
            )}
          </div>
          <div className="settings-actions">
            <button className="button primary" type="submit" disabled={busy}>
              {t("create")}
            </button>
          </div>
        </form>
        {created && <FeedAddress url={created.url} onDone={() => setCreated(null)} />}
      </section>
      <section className="auth-card" aria-labelledby="calendar-list-title">
        <h2 id="calendar-list-title">{t("listTitle")}</h2>
        <p className="auth-status" role="status">
          {status}
        </p>
        {feeds.length === 0 ? (
          <p className="auth-hint">{t("empty")}</p>
        ) : (
          <ul className="calendar-feed-list">
            {feeds.map((feed) => (
              <li key={feed.id} className="calendar-feed">
                <div>
                  <strong>{feed.name}</strong>
                  <span className="auth-hint">
                    {" "}
                    {t("createdAt", { date: format.dateTime(new Date(feed.createdAt), { dateStyle: "medium" }) })}
                    {" · "}
                    {feed.lastUsedAt
                      ? t("lastUsed", {
                          date: format.dateTime(new Date(feed.lastUsedAt), { dateStyle: "medium", timeStyle: "short" }),
                        })
                      : t("neverUsed")}
                  </span>
                </div>
                <button className="button" type="button" onClick={() => void revoke(feed)}>
                  {t("revoke")}
                </button>
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  );
}
