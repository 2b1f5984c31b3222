import { useFormatter, useTranslations } from "next-intl";
import { useId, type ReactNode } from "react";
import type { GoalStatus } from "@/lib/goals/vocabulary";

/*
 * The small pieces every goal page shares: a labelled field (its hint and error tied to the control with
 * aria-describedby), the status badge, the progress bar, and local dates (YYYY-MM-DD, a calendar day in the
 * user's own time zone) as the user's language writes them.
 */

export interface ControlProps {
  id: string;
  "aria-describedby"?: string;
  "aria-invalid"?: true;
}

export function Field(props: { label: string; hint?: string; error?: string; children: (control: ControlProps) => ReactNode }) {
  const id = useId();
  const described = [props.hint && `${id}-hint`, props.error && `${id}-error`].filter(Boolean).join(" ");
  return (
    <div className="goal-field">
      <label htmlFor={id}>{props.label}</label>
      {props.children({ id, "aria-describedby": described || undefined, "aria-invalid": props.error ? true : undefined })}
      {props.hint && (
        <p id={`${id}-hint`} className="goal-hint">
          {props.hint}
        </p>
      )}
      {props.error && (
        <p id={`${id}-error`} className="goal-field-error">
          {props.error}
        </p>
      )}
    </div>
  );
}

/** A form-level message region that exists from the start, so that screen readers announce what appears in it. */
export function FormMessage({ id, message, kind }: { id?: string; message?: string; kind: "error" | "status" }) {
  return (
    <p id={id} className={kind === "error" ? "goal-form-error" : "goal-form-status"} role={kind === "error" ? "alert" : "status"}>
      {message}
    </p>
  );
}

export function GoalStatusBadge({ status }: { status: GoalStatus }) {
  const t = useTranslations("Goals");
  return <span className={`goal-status goal-status-${status}`}>{t(`status.${status}`)}</span>;
}

export function ProgressBar({ value, label }: { value: number; label: string }) {
  const t = useTranslations("Goals");
  const text = t("progressValue", { progress: value });
  return (
    <div className="goal-progress">
      <div
        className="goal-progress-track"
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={value}
        aria-valuetext={text}
      >
        <div className="goal-progress-fill" style={{ inlineSize: `${value}%` }} />
      </div>
      <span className="goal-progress-text" aria-hidden="true">
        {text}
      </span>
    </div>
  );
}

/** Formats a local date (YYYY-MM-DD): it names a calendar day, so it is read at noon UTC and shown in UTC. */
export function useLocalDate(): (date: string, style?: "medium" | "long" | "short") => string {
  const format = useFormatter();
  return (date, style = "medium") => format.dateTime(new Date(`${date}T12:00:00Z`), { timeZone: "UTC", dateStyle: style });
}

/** The message for an answer that is neither a success nor a problem the form handles itself. */
export function failureMessage(t: ReturnType<typeof useTranslations<"Goals">>, status: number): string {
  if (status === 401) return t("errorSignedOut");
  if (status === 404) return t("errorNotFound");
  if (status === 429) return t("errorRateLimited");
  return t("errorGeneric");
}
