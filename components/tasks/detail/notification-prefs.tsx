"use client";

import { useTranslations } from "next-intl";
import { useId, useState } from "react";
import { fieldErrors } from "@/components/auth/call-api";
import { FormError } from "@/components/auth/form-field";
import type { PrefsOutput } from "@/lib/notifications/schema";
import { noAnswer, useFailureMessage, type Announce } from "./task-api";
import { api } from "@/lib/api-client/client";

/*
 * The signed-in user's own reminders for this task (`/notification-prefs/{taskId}`, snake_case as the interface
 * spec names them): how long before the due time, at the due time itself, in the daily summary, and on which
 * channels. Each user has their own; until they save, the documented defaults apply.
 */

type Channel = PrefsOutput["channels"][number];
type Field = "remind_before" | "on_due" | "daily" | "channels";

const CHANNELS = [
  { value: "in_app", label: "channelInApp" },
  { value: "push", label: "channelPush" },
  { value: "email", label: "channelEmail" },
] as const satisfies readonly { value: Channel; label: string }[];

/** The advance reminders offered, in minutes (the API takes any whole number up to four weeks). */
const LEAD_TIMES = [5, 10, 15, 30, 60, 120, 1440, 2880, 10080];
const NONE = "none";

export function NotificationPrefs({ taskId, initial, announce }: { taskId: string; initial: PrefsOutput; announce: Announce }) {
  const t = useTranslations("TaskDetail");
  const id = useId();
  const failure = useFailureMessage();
  const [prefs, setPrefs] = useState(initial);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [formError, setFormError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const leadTimes =
    prefs.remind_before === null || LEAD_TIMES.includes(prefs.remind_before)
      ? LEAD_TIMES
      : [...LEAD_TIMES, prefs.remind_before].sort((a, b) => a - b);

  async function save(data: FormData) {
    const lead = String(data.get("remind_before"));
    const json = {
      remind_before: lead === NONE ? null : Number(lead),
      on_due: data.get("on_due") === "on",
      daily: data.get("daily") === "on",
      channels: CHANNELS.map((channel) => channel.value).filter((channel) => data.getAll("channels").includes(channel)),
    };
    setBusy(true);
    const answer = await api
      .PUT("/api/v1/notification-prefs/{taskId}", { params: { path: { taskId } }, body: json })
      .catch(noAnswer);
    setBusy(false);
    if (answer.ok) {
      setPrefs(answer.body);
      setErrors({});
      setFormError(undefined);
      return announce(t("remindersSaved"));
    }
    if (answer.status === 400) {
      const named = fieldErrors(answer.body, {
        remind_before: t("errorRemindBefore"),
        on_due: t("errorInvalid"),
        daily: t("errorInvalid"),
        channels: t("errorChannels"),
      });
      setErrors(named);
      return setFormError(Object.keys(named).length ? undefined : t("errorInvalid"));
    }
    setFormError(failure(answer.status));
  }

  return (
    <section className="task-card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t("remindersTitle")}</h2>
      <p className="auth-hint">{t(prefs.stored ? "remindersLead" : "remindersDefaultsLead")}</p>
      <form
        className="auth-form"
        noValidate
        aria-describedby={formError ? `${id}-form-error` : undefined}
        onSubmit={(event) => {
          event.preventDefault();
          if (!busy) void save(new FormData(event.currentTarget));
        }}
      >
        <FormError id={`${id}-form-error`} message={formError} />
        <div className="auth-field">
          <label htmlFor={`${id}-lead`}>{t("remindBeforeLabel")}</label>
          <select
            id={`${id}-lead`}
            name="remind_before"
            defaultValue={prefs.remind_before === null ? NONE : String(prefs.remind_before)}
            aria-invalid={errors.remind_before ? true : undefined}
            aria-describedby={errors.remind_before ? `${id}-lead-error` : undefined}
          >
            <option value={NONE}>{t("remindNone")}</option>
            {leadTimes.map((minutes) => (
              <option key={minutes} value={minutes}>
                <LeadTime minutes={minutes} />
              </option>
            ))}
          </select>
          {errors.remind_before && (
            <p id={`${id}-lead-error`} className="auth-field-error" role="alert">
              {errors.remind_before}
            </p>
          )}
        </div>
        <div className="task-choices">
          <label>
            <input type="checkbox" name="on_due" defaultChecked={prefs.on_due} /> {t("onDueLabel")}
          </label>
          <label>
            <input type="checkbox" name="daily" defaultChecked={prefs.daily} /> {t("dailyLabel")}
          </label>
        </div>
        <fieldset className="auth-field task-choices" aria-describedby={errors.channels ? `${id}-channels-error` : undefined}>
          <legend>{t("channelsLegend")}</legend>
          {CHANNELS.map((channel) => (
            <label key={channel.value}>
              <input
                type="checkbox"
                name="channels"
                value={channel.value}
                defaultChecked={prefs.channels.includes(channel.value)}
              />{" "}
              {t(channel.label)}
            </label>
          ))}
          {errors.channels && (
            <p id={`${id}-channels-error`} className="auth-field-error" role="alert">
              {errors.channels}
            </p>
          )}
        </fieldset>
        <button type="submit" className="button" disabled={busy} aria-busy={busy}>
          {t("saveReminders")}
        </button>
      </form>
    </section>
  );
}

/** "30 minutes before", "2 hours before", "1 week before"... in the largest whole unit. */
function LeadTime({ minutes }: { minutes: number }) {
  const t = useTranslations("TaskDetail");
  if (minutes === 0) return t("remindAtDue");
  if (minutes % 10080 === 0) return t("remindWeeks", { count: minutes / 10080 });
  if (minutes % 1440 === 0) return t("remindDays", { count: minutes / 1440 });
  if (minutes % 60 === 0) return t("remindHours", { count: minutes / 60 });
  return t("remindMinutes", { count: minutes });
}
