"use client";

import { useFormatter, useTranslations } from "next-intl";
import { useState } from "react";
import { fieldErrors } from "@/components/auth/call-api";
import { api } from "@/lib/api-client/client";
import type { GoalOutput, ReportOutput } from "@/lib/goals/schema";
import { REPORT_NOTE_MAX } from "@/lib/goals/vocabulary";
import { failureMessage, Field, FormMessage, useLocalDate } from "./goal-fields";
import { ProgressChart } from "./progress-chart";

type FieldName = "date" | "value" | "note";

interface Props {
  goalId: string;
  reports: readonly ReportOutput[];
  onChange(reports: ReportOutput[]): void;
  /** Today in the user's time zone (YYYY-MM-DD): the latest date a report may have. */
  today: string;
  /** The goal's progress now: what a new report proposes. */
  progress: number;
  /** `manual`: the newest report sets the progress; `tasks`: the linked tasks do, and the reports are a history. */
  progressMode: GoalOutput["progressMode"];
}

/** In the API's order: by date, those of one date as written. */
const byDate = (a: ReportOutput, b: ReportOutput) => a.date.localeCompare(b.date) || a.createdAt.localeCompare(b.createdAt);

/** Progress reports: a form to add one, the chart, and every report in a table (the chart's text alternative). */
export function ProgressReports({ goalId, reports, onChange, today, progress, progressMode }: Props) {
  const t = useTranslations("Goals");
  const format = useFormatter();
  const localDate = useLocalDate();
  const [busy, setBusy] = useState(false);
  const [added, setAdded] = useState(false);
  const [errors, setErrors] = useState<{ form?: string; fields: Partial<Record<FieldName, string>> }>({ fields: {} });
  const messages: Record<FieldName, string> = {
    date: t("errorReportDate"),
    value: t("errorProgress"),
    note: t("errorNote", { max: REPORT_NOTE_MAX }),
  };

  async function add(form: HTMLFormElement) {
    const data = new FormData(form);
    const json = { date: String(data.get("date") ?? ""), value: Number(data.get("value")), note: String(data.get("note") ?? "") };
    const fields: Partial<Record<FieldName, string>> = {};
    if (!json.date || json.date > today) fields.date = messages.date;
    if (String(data.get("value") ?? "") === "" || !Number.isInteger(json.value) || json.value < 0 || json.value > 100)
      fields.value = messages.value;
    if (Object.keys(fields).length) return setErrors({ form: t("errorSummary"), fields });
    const answer = await api.POST("/api/v1/goals/{id}/reports", { params: { path: { id: goalId } }, body: json });
    if (answer.ok) {
      onChange([...reports, answer.body].sort(byDate));
      form.reset();
      return setAdded(true);
    }
    if (answer.status === 400) {
      const found = fieldErrors(answer.body, messages);
      return setErrors({ form: Object.keys(found).length ? t("errorSummary") : t("errorGeneric"), fields: found });
    }
    setErrors({ form: answer.status === 409 ? t("errorLimit") : failureMessage(t, answer.status), fields: {} });
  }

  async function remove(report: ReportOutput) {
    setBusy(true);
    setAdded(false);
    setErrors({ fields: {} });
    try {
      const answer = await api.DELETE("/api/v1/goals/{id}/reports/{reportId}", {
        params: { path: { id: goalId, reportId: report.id } },
      });
      if (answer.ok || answer.status === 404) onChange(reports.filter((other) => other.id !== report.id));
      else setErrors({ form: failureMessage(t, answer.status), fields: {} });
    } catch {
      setErrors({ form: t("errorGeneric"), fields: {} });
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="goal-section" aria-labelledby="goal-reports-title">
      <h2 id="goal-reports-title">{t("reportsTitle")}</h2>
      {/* How the reports relate to the progress shown above, so that a report of 35 % beside "0 % done" is explained. */}
      <p className="goal-reports-note">
        {progressMode === "tasks" ? t("reportsFromTasks", { progress }) : t("reportsSetProgress")}
      </p>
      <FormMessage id="goal-report-error" kind="error" message={errors.form} />
      <FormMessage kind="status" message={added ? t("reportAdded") : ""} />
      <form
        className="goal-form"
        noValidate
        aria-describedby={errors.form ? "goal-report-error" : undefined}
        onSubmit={async (event) => {
          event.preventDefault();
          if (busy) return;
          const form = event.currentTarget;
          setBusy(true);
          setAdded(false);
          setErrors({ fields: {} });
          try {
            await add(form);
          } catch {
            setErrors({ form: t("errorGeneric"), fields: {} });
          } finally {
            setBusy(false);
          }
        }}
      >
        <div className="goal-form-row">
          <Field label={t("reportDateLabel")} error={errors.fields.date}>
            {(control) => <input {...control} name="date" type="date" required max={today} defaultValue={today} />}
          </Field>
          <Field label={t("reportValueLabel")} error={errors.fields.value}>
            {(control) => (
              <input
                {...control}
                name="value"
                type="number"
                required
                min={0}
                max={100}
                step={1}
                inputMode="numeric"
                defaultValue={progress}
              />
            )}
          </Field>
        </div>
        <Field label={t("reportNoteLabel")} error={errors.fields.note}>
          {(control) => <input {...control} name="note" type="text" maxLength={REPORT_NOTE_MAX} dir="auto" autoComplete="off" />}
        </Field>
        <div className="goal-actions">
          <button className="button primary" type="submit" disabled={busy} aria-busy={busy}>
            {busy ? t("working") : t("addReport")}
          </button>
        </div>
      </form>
      {reports.length === 0 ? (
        <p className="goals-empty">{t("noReports")}</p>
      ) : (
        <>
          <ProgressChart reports={reports} />
          <div className="goal-table-wrap">
            <table className="goal-table">
              <caption>{t("tableCaption")}</caption>
              <thead>
                <tr>
                  <th scope="col">{t("columnDate")}</th>
                  <th scope="col">{t("columnValue")}</th>
                  <th scope="col">{t("columnNote")}</th>
                  <th scope="col">
                    <span className="visually-hidden">{t("columnActions")}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {reports.map((report) => (
                  <tr key={report.id}>
                    <td>
                      {/* The short form replaces the long one on phones (CSS), leaving the note some room. */}
                      <time dateTime={report.date}>
                        <span className="goal-date-long">{localDate(report.date)}</span>
                        <span className="goal-date-short">{localDate(report.date, "short")}</span>
                      </time>
                    </td>
                    <td>{format.number(report.value / 100, { style: "percent" })}</td>
                    <td dir="auto">{report.note}</td>
                    <td>
                      <button
                        className="button small"
                        type="button"
                        disabled={busy}
                        aria-label={t("deleteReportLabel", { date: localDate(report.date) })}
                        onClick={() => remove(report)}
                      >
                        {t("deleteReport")}
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </section>
  );
}
