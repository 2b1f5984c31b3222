"use client";

import { useFormatter, useTranslations } from "next-intl";
import { useId, useState } from "react";
import { fieldErrors } from "@/components/auth/call-api";
import { FormError } from "@/components/auth/form-field";
import type { TaskOutput } from "@/lib/tasks/schema";
import { useFailureMessage, type SaveTask } from "./task-api";

/*
 * How the task repeats (the `recurrence` of PATCH /tasks/{id}, lib/tasks/schema.ts): every N days, weeks or
 * months, counted from the schedule or from completion, until a date or for a number of times; "Stop repeating"
 * sets it to null and keeps the tasks made so far. A repeating task needs a due date: the API says so (a 400 at
 * /dueAt), and the form shows it. Only the task's owner (`manage`) changes it; others read a sentence.
 */

type Recurrence = NonNullable<TaskOutput["recurrence"]>;
type Ending = "never" | "until" | "count";
type Field = "dueAt" | "recurrence";

const INTERVAL_MAX = 365;
const COUNT_MAX = 10_000;

interface RecurrenceEditorProps {
  task: TaskOutput;
  canManage: boolean;
  saveTask: SaveTask;
}

export function RecurrenceEditor({ task, canManage, saveTask }: RecurrenceEditorProps) {
  const t = useTranslations("TaskDetail");
  const id = useId();
  const failure = useFailureMessage();
  const current = task.recurrence;
  const [frequency, setFrequency] = useState<Recurrence["frequency"]>(current?.frequency ?? "weekly");
  const [every, setEvery] = useState(String(current?.interval ?? 1));
  const [anchor, setAnchor] = useState<Recurrence["anchor"]>(current?.anchor ?? "scheduled");
  const [ending, setEnding] = useState<Ending>(current?.until ? "until" : current?.count ? "count" : "never");
  const [until, setUntil] = useState(current?.until ?? "");
  const [count, setCount] = useState(String(current?.count ?? 10));
  const [errors, setErrors] = useState<Partial<Record<Field | "interval" | "until" | "count", string>>>({});
  const [formError, setFormError] = useState<string>();
  const [busy, setBusy] = useState(false);

  async function save(recurrence: Recurrence | null) {
    setBusy(true);
    const result = await saveTask({ recurrence });
    setBusy(false);
    if (result.ok) {
      setErrors({});
      setFormError(undefined);
      return;
    }
    if (result.status === 400) {
      const named = fieldErrors(result.body, { dueAt: t("errorRecurrenceNeedsDue"), recurrence: t("errorRecurrence") });
      setErrors(named);
      setFormError(Object.keys(named).length ? undefined : t("errorInvalid"));
    } else {
      setFormError(failure(result.status));
    }
  }

  function submit() {
    const steps = Number(every);
    const times = Number(count);
    const problems: typeof errors = {};
    if (!Number.isInteger(steps) || steps < 1 || steps > INTERVAL_MAX)
      problems.interval = t("errorInterval", { max: INTERVAL_MAX });
    if (ending === "until" && !/^\d{4}-\d{2}-\d{2}$/.test(until)) problems.until = t("errorUntil");
    if (ending === "count" && (!Number.isInteger(times) || times < 1 || times > COUNT_MAX))
      problems.count = t("errorCount", { max: COUNT_MAX });
    setErrors(problems);
    if (Object.keys(problems).length) return;
    void save({
      frequency,
      interval: steps,
      anchor,
      until: ending === "until" ? until : null,
      count: ending === "count" ? times : null,
    });
  }

  const error = (field: keyof typeof errors) =>
    errors[field] && (
      <p id={`${id}-${field}-error`} className="auth-field-error" role="alert">
        {errors[field]}
      </p>
    );
  const invalid = (field: keyof typeof errors) =>
    errors[field] ? { "aria-invalid": true as const, "aria-describedby": `${id}-${field}-error` } : {};

  return (
    <section className="task-card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t("recurrenceTitle")}</h2>
      <p className="task-summary">{current ? <RecurrenceSummary recurrence={current} /> : t("doesNotRepeat")}</p>
      {canManage && (
        <form
          className="auth-form"
          noValidate
          aria-describedby={formError ? `${id}-form-error` : undefined}
          onSubmit={(event) => {
            event.preventDefault();
            if (!busy) submit();
          }}
        >
          <FormError id={`${id}-form-error`} message={formError} />
          {!task.dueAt && <p className="auth-hint">{t("recurrenceNeedsDueHint")}</p>}
          <div className="task-field-pair">
            <div className="auth-field">
              <label htmlFor={`${id}-frequency`}>{t("frequencyLabel")}</label>
              <select
                id={`${id}-frequency`}
                value={frequency}
                onChange={(event) => setFrequency(event.currentTarget.value as Recurrence["frequency"])}
              >
                <option value="daily">{t("frequencyDaily")}</option>
                <option value="weekly">{t("frequencyWeekly")}</option>
                <option value="monthly">{t("frequencyMonthly")}</option>
              </select>
            </div>
            <div className="auth-field">
              <label htmlFor={`${id}-interval`}>{t("intervalLabel", { frequency })}</label>
              <input
                id={`${id}-interval`}
                type="number"
                inputMode="numeric"
                min={1}
                max={INTERVAL_MAX}
                value={every}
                onChange={(event) => setEvery(event.currentTarget.value)}
                {...invalid("interval")}
              />
              {error("interval")}
            </div>
          </div>
          <fieldset className="auth-field task-choices">
            <legend>{t("anchorLegend")}</legend>
            {(["scheduled", "completion"] as const).map((value) => (
              <label key={value}>
                <input
                  type="radio"
                  name={`${id}-anchor`}
                  value={value}
                  checked={anchor === value}
                  onChange={() => setAnchor(value)}
                />{" "}
                {t(value === "scheduled" ? "anchorScheduled" : "anchorCompletion")}
              </label>
            ))}
          </fieldset>
          <fieldset className="auth-field task-choices">
            <legend>{t("endLegend")}</legend>
            <label>
              <input type="radio" name={`${id}-end`} checked={ending === "never"} onChange={() => setEnding("never")} />{" "}
              {t("endNever")}
            </label>
            <label>
              <input type="radio" name={`${id}-end`} checked={ending === "until"} onChange={() => setEnding("until")} />{" "}
              {t("endUntil")}
            </label>
            {ending === "until" && (
              <div className="auth-field task-nested">
                <label htmlFor={`${id}-until`}>{t("untilLabel")}</label>
                <input
                  id={`${id}-until`}
                  type="date"
                  dir="ltr"
                  value={until}
                  onChange={(event) => setUntil(event.currentTarget.value)}
                  {...invalid("until")}
                />
                {error("until")}
              </div>
            )}
            <label>
              <input type="radio" name={`${id}-end`} checked={ending === "count"} onChange={() => setEnding("count")} />{" "}
              {t("endCount")}
            </label>
            {ending === "count" && (
              <div className="auth-field task-nested">
                <label htmlFor={`${id}-count`}>{t("countLabel")}</label>
                <input
                  id={`${id}-count`}
                  type="number"
                  inputMode="numeric"
                  min={1}
                  max={COUNT_MAX}
                  value={count}
                  onChange={(event) => setCount(event.currentTarget.value)}
                  {...invalid("count")}
                />
                {error("count")}
              </div>
            )}
          </fieldset>
          {error("dueAt")}
          {error("recurrence")}
          <div className="task-buttons">
            <button type="submit" className="button primary" disabled={busy} aria-busy={busy}>
              {current ? t("saveRecurrence") : t("startRecurrence")}
            </button>
            {current && (
              <button type="button" className="button" disabled={busy} onClick={() => void save(null)}>
                {t("stopRecurrence")}
              </button>
            )}
          </div>
        </form>
      )}
    </section>
  );
}

/** "Every 2 weeks, from the scheduled date, 10 times" in the page's language. */
function RecurrenceSummary({ recurrence }: { recurrence: Recurrence }) {
  const t = useTranslations("TaskDetail");
  const format = useFormatter();
  const parts = [
    t("repeatsEvery", { frequency: recurrence.frequency, interval: recurrence.interval }),
    t(recurrence.anchor === "scheduled" ? "fromSchedule" : "fromCompletion"),
  ];
  if (recurrence.until) {
    parts.push(
      t("repeatsUntil", {
        date: format.dateTime(new Date(`${recurrence.until}T12:00:00Z`), { dateStyle: "long", timeZone: "UTC" }),
      }),
    );
  }
  if (recurrence.count) parts.push(t("repeatsTimes", { count: recurrence.count }));
  return <>{format.list(parts, { type: "unit", style: "short" })}</>;
}
