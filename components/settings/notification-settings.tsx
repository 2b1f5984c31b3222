"use client";

import { useTranslations } from "next-intl";
import { useId, useState } from "react";
import { fieldErrors } from "@/components/auth/call-api";
import { api } from "@/lib/api-client/client";
import { FormError } from "@/components/auth/form-field";
import { useFormSave } from "@/components/auth/use-form-save";
import type { SettingsOutput } from "@/lib/notifications/schema";

/*
 * The summaries form of /{locale}/settings/notifications: the time of the daily summary (or none), the weekly
 * report, and the channels both go out on (`PUT /notification-settings`). Fields the API's problem names
 * (`errors[].pointer`) get a localized message next to them; the API's own words are never shown.
 */

type Channel = SettingsOutput["summaryChannels"][number];
type Field = "dailySummaryTime" | "weeklyReport" | "weeklyReportWhenQuiet" | "summaryChannels";

const CHANNELS = [
  { value: "in_app", label: "channelInApp" },
  { value: "push", label: "channelPush" },
  { value: "email", label: "channelEmail" },
] as const satisfies readonly { value: Channel; label: string }[];

const DEFAULT_TIME = "07:00";

export interface SummarySettingsValues {
  dailySummaryTime: string | null;
  weeklyReport: boolean;
  /** Also after a week in which nothing happened. */
  weeklyReportWhenQuiet: boolean;
  summaryChannels: readonly Channel[];
  /** The user's time zone, in which the daily summary time is read. */
  timeZone: string;
}

export function NotificationSettingsForm({ initial }: { initial: SummarySettingsValues }) {
  const t = useTranslations("NotificationSettings");
  const id = useId();
  const [noDaily, setNoDaily] = useState(initial.dailySummaryTime === null);
  const [weekly, setWeekly] = useState(initial.weeklyReport);
  const { busy, saved, setSaved, errors, setErrors, submitWith } = useFormSave<Field>(t("errorGeneric"));

  async function save(data: FormData) {
    const time = String(data.get("dailySummaryTime") ?? "").slice(0, 5);
    const json = {
      dailySummaryTime: noDaily ? null : time,
      weeklyReport: weekly,
      ...(weekly ? { weeklyReportWhenQuiet: data.get("weeklyReportWhenQuiet") === "on" } : {}),
      summaryChannels: CHANNELS.map((channel) => channel.value).filter((channel) =>
        data.getAll("summaryChannels").includes(channel),
      ),
    };
    if (!noDaily && !/^([01]\d|2[0-3]):[0-5]\d$/.test(time)) {
      return setErrors({ form: t("errorSummary"), fields: { dailySummaryTime: t("errorTime") } });
    }
    const answer = await api.PUT("/api/v1/notification-settings", { body: json });
    if (answer.ok) return setSaved(true);
    if (answer.status === 400) {
      const messages: Record<Field, string> = {
        dailySummaryTime: t("errorTime"),
        weeklyReport: t("errorWeekly"),
        weeklyReportWhenQuiet: t("errorWeekly"),
        summaryChannels: t("errorChannels"),
      };
      const fields = fieldErrors(answer.body, messages);
      return setErrors({ form: Object.keys(fields).length ? t("errorSummary") : t("errorGeneric"), fields });
    }
    setErrors({ form: failureMessage(t, answer.status), fields: {} });
  }

  const fieldError = (field: Field) =>
    errors.fields[field] && (
      <p id={`${id}-${field}-error`} className="auth-field-error" role="alert">
        {errors.fields[field]}
      </p>
    );
  const describedBy = (field: Field, hint?: string) =>
    [hint, errors.fields[field] && `${id}-${field}-error`].filter(Boolean).join(" ") || undefined;

  return (
    <section className="auth-card" aria-labelledby="summaries-title">
      <h2 id="summaries-title">{t("summariesTitle")}</h2>
      <p className="auth-lead">{t("summariesLead", { timeZone: initial.timeZone.replaceAll("_", " ") })}</p>
      <FormError id="summaries-error" message={errors.form} />
      <p className="auth-status" role="status">
        {saved ? t("saved") : ""}
      </p>
      <form
        className="auth-form"
        noValidate
        aria-describedby={errors.form ? "summaries-error" : undefined}
        onSubmit={submitWith(save)}
      >
        <div className="auth-field">
          <label htmlFor={`${id}-time`}>{t("dailyTimeLabel")}</label>
          <input
            id={`${id}-time`}
            name="dailySummaryTime"
            type="time"
            dir="ltr"
            defaultValue={initial.dailySummaryTime ?? DEFAULT_TIME}
            disabled={noDaily}
            aria-invalid={errors.fields.dailySummaryTime ? true : undefined}
            aria-describedby={describedBy("dailySummaryTime", `${id}-time-hint`)}
          />
          <p id={`${id}-time-hint`} className="auth-hint">
            {t("dailyTimeHint")}
          </p>
          {fieldError("dailySummaryTime")}
          <label>
            <input
              type="checkbox"
              name="noDailySummary"
              checked={noDaily}
              onChange={(event) => setNoDaily(event.currentTarget.checked)}
            />{" "}
            {t("noDailyLabel")}
          </label>
        </div>
        <div className="auth-field">
          <label>
            <input
              type="checkbox"
              name="weeklyReport"
              checked={weekly}
              onChange={(event) => setWeekly(event.currentTarget.checked)}
              aria-invalid={errors.fields.weeklyReport ? true : undefined}
              aria-describedby={describedBy("weeklyReport")}
            />{" "}
            {t("weeklyLabel")}
          </label>
          {fieldError("weeklyReport")}
          <label>
            <input
              type="checkbox"
              name="weeklyReportWhenQuiet"
              defaultChecked={initial.weeklyReportWhenQuiet}
              disabled={!weekly}
              aria-invalid={errors.fields.weeklyReportWhenQuiet ? true : undefined}
              aria-describedby={describedBy("weeklyReportWhenQuiet", `${id}-quiet-hint`)}
            />{" "}
            {t("weeklyQuietLabel")}
          </label>
          <p id={`${id}-quiet-hint`} className="auth-hint">
            {t("weeklyQuietHint")}
          </p>
          {fieldError("weeklyReportWhenQuiet")}
        </div>
        <fieldset className="auth-field" aria-describedby={describedBy("summaryChannels")}>
          <legend>{t("channelsLegend")}</legend>
          {CHANNELS.map((channel) => (
            <label key={channel.value}>
              <input
                type="checkbox"
                name="summaryChannels"
                value={channel.value}
                defaultChecked={initial.summaryChannels.includes(channel.value)}
              />{" "}
              {t(channel.label)}
            </label>
          ))}
          {fieldError("summaryChannels")}
        </fieldset>
        <button className="button primary" type="submit" disabled={busy} aria-busy={busy}>
          {busy ? t("saving") : t("save")}
        </button>
      </form>
    </section>
  );
}

/** The message for an answer that is neither a success nor a validation problem. */
export function failureMessage(t: ReturnType<typeof useTranslations<"NotificationSettings">>, status: number): string {
  if (status === 401) return t("errorSignedOut");
  if (status === 429) return t("errorRateLimited");
  return t("errorGeneric");
}
