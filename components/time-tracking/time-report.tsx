"use client";

import { useTranslations } from "next-intl";
import { useState } from "react";
import { api } from "@/lib/api-client/client";
import { Field, FormMessage } from "@/components/goals/goal-fields";
import type { ReportOutput } from "@/lib/time-tracking/schema";
import { formatDuration } from "./duration";

/*
 * The time report of /{locale}/time: a range of local dates (the user's time zone), grouped per task, per person or
 * per day, with the total, and a link that downloads the same range as CSV. The first report comes from the server.
 */

type Grouping = ReportOutput["by"];
const GROUPINGS: readonly Grouping[] = ["task", "user", "day"];

export function TimeReport({ initial }: { initial: ReportOutput }) {
  const t = useTranslations("TimeTracking");
  const [report, setReport] = useState(initial);
  const [range, setRange] = useState({ from: initial.from, to: initial.to });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const csv = `/api/v1/time-entries/export.csv?from=${encodeURIComponent(report.from)}&to=${encodeURIComponent(report.to)}`;
  const column = { task: t("columnTask"), user: t("columnUser"), day: t("columnDay") }[report.by];

  async function show(data: FormData) {
    setBusy(true);
    const answer = await api
      .GET("/api/v1/time-entries/report", {
        // `by` is one of the options the select offers (the server refuses any other).
        params: {
          query: { from: String(data.get("from")), to: String(data.get("to")), by: String(data.get("by")) as ReportOutput["by"] },
        },
      })
      .catch(() => null);
    setBusy(false);
    if (answer?.ok) {
      setReport(answer.body);
      setError(undefined);
    } else setError(answer?.status === 400 ? t("errorRange") : t("errorGeneric"));
  }

  return (
    <>
      <form
        className="goal-form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (!busy) void show(new FormData(event.currentTarget));
        }}
      >
        <FormMessage kind="error" message={error} />
        <div className="goal-form-row">
          <Field label={t("fromLabel")}>
            {(control) => (
              <input
                {...control}
                name="from"
                type="date"
                value={range.from}
                onChange={(event) => setRange({ ...range, from: event.target.value })}
                required
              />
            )}
          </Field>
          <Field label={t("toLabel")}>
            {(control) => (
              <input
                {...control}
                name="to"
                type="date"
                value={range.to}
                onChange={(event) => setRange({ ...range, to: event.target.value })}
                required
              />
            )}
          </Field>
          <Field label={t("byLabel")}>
            {(control) => (
              <select {...control} name="by" defaultValue={report.by}>
                {GROUPINGS.map((by) => (
                  <option key={by} value={by}>
                    {t(`by.${by}`)}
                  </option>
                ))}
              </select>
            )}
          </Field>
        </div>
        <div className="goal-actions">
          <button className="button primary" type="submit" disabled={busy} aria-busy={busy}>
            {t("show")}
          </button>
          <a className="button" href={csv} download>
            {t("download")}
          </a>
        </div>
      </form>
      <table className="time-table">
        <caption>{t("tableCaption", { from: report.from, to: report.to })}</caption>
        <thead>
          <tr>
            <th scope="col">{column}</th>
            <th scope="col">{t("columnEntries")}</th>
            <th scope="col">{t("columnTime")}</th>
          </tr>
        </thead>
        <tbody>
          {report.rows.length === 0 && (
            <tr>
              <td colSpan={3}>{t("empty")}</td>
            </tr>
          )}
          {report.rows.map((row) => (
            <tr key={row.key}>
              <th scope="row" dir="auto">
                {row.label}
              </th>
              <td>{row.entries}</td>
              <td>{formatDuration(row.seconds)}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row">{t("total")}</th>
            <td />
            <td>{formatDuration(report.totalSeconds)}</td>
          </tr>
        </tfoot>
      </table>
    </>
  );
}
