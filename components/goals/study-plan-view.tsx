"use client";

import { useFormatter, useLocale, useTranslations } from "next-intl";
import { useMemo, useState } from "react";
import { api } from "@/lib/api-client/client";
import type { AppliedStudyPlanOutput, StudyPlanOutput } from "@/lib/goals/schema";
import { failureMessage, FormMessage, useLocalDate } from "./goal-fields";

interface Props {
  goalId: string;
  plan: StudyPlanOutput | null;
  onPlan(plan: StudyPlanOutput): void;
  onApplied(applied: AppliedStudyPlanOutput): void;
  /** Whether an AI endpoint is configured: it, not the built-in planner, then writes plans. */
  aiConfigured: boolean;
}

/** ISO days of the week, Monday first. */
const WEEKDAYS = [1, 2, 3, 4, 5, 6, 7] as const;

/** The days' names in a language: 2026-03-02 was a Monday. */
function weekdayNames(locale: string): Map<number, string> {
  const format = new Intl.DateTimeFormat(locale, { weekday: "long", timeZone: "UTC" });
  return new Map(WEEKDAYS.map((day) => [day, format.format(new Date(Date.UTC(2026, 2, 1 + day)))]));
}

/** `offerReplace`: the goal's progress was set by hand, and applying again with consent replaces it. */
type Problem = { message: string; offerBuiltIn: boolean; offerReplace?: boolean };

/**
 * The goal's study plan: its sessions with dates and steps and who wrote it; generating or regenerating it
 * (`POST /goals/{id}/study-plan`, with the built-in planner on offer when the AI fails) and applying it, which
 * turns its sessions into tasks (`POST /goals/{id}/study-plan/apply`).
 */
export function StudyPlanView({ goalId, plan, onPlan, onApplied, aiConfigured }: Props) {
  const t = useTranslations("Goals");
  const format = useFormatter();
  const localDate = useLocalDate();
  const locale = useLocale();
  const dayNames = useMemo(() => weekdayNames(locale), [locale]);
  /** The days of the week the person ticked (none: the planner picks) and whether holidays are skipped. */
  const [weekdays, setWeekdays] = useState<number[]>(plan?.weekdays ?? []);
  const [skipHolidays, setSkipHolidays] = useState(plan ? plan.holidayCountry !== null || plan.skippedHolidays.length > 0 : true);
  const [busy, setBusy] = useState<"generate" | "apply" | null>(null);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [notice, setNotice] = useState("");

  async function run(kind: "generate" | "apply", work: () => Promise<void>) {
    setBusy(kind);
    setProblem(null);
    setNotice("");
    try {
      await work();
    } catch {
      setProblem({ message: t("errorGeneric"), offerBuiltIn: false });
    } finally {
      setBusy(null);
    }
  }

  const generate = (assistant?: "built-in") =>
    run("generate", async () => {
      const answer = await api.POST("/api/v1/goals/{id}/study-plan", {
        params: { path: { id: goalId } },
        body: {
          ...(assistant ? { assistant } : {}),
          ...(weekdays.length ? { weekdays } : {}),
          ...(skipHolidays ? {} : { holidayCountry: null }),
        },
      });
      if (answer.ok) {
        onPlan(answer.body);
        return setNotice(t("generated"));
      }
      if (answer.status === 503) return setProblem({ message: t("errorAiUnavailable"), offerBuiltIn: true });
      if (answer.status === 429 && aiConfigured && !assistant)
        return setProblem({ message: t("errorAiBudget"), offerBuiltIn: true });
      setProblem({
        message: answer.status === 409 ? t("errorTargetPassed") : failureMessage(t, answer.status),
        offerBuiltIn: false,
      });
    });

  const apply = (replaceManualProgress = false) =>
    run("apply", async () => {
      const answer = await api.POST("/api/v1/goals/{id}/study-plan/apply", {
        params: { path: { id: goalId } },
        body: replaceManualProgress ? { replaceManualProgress } : {},
      });
      if (answer.ok) {
        onApplied(answer.body);
        return setNotice(t("appliedNow", { count: answer.body.taskIds.length }));
      }
      if (answer.status === 409 && answer.body?.code === "progress_set_by_hand") {
        return setProblem({ message: t("applyReplacesProgress"), offerBuiltIn: false, offerReplace: true });
      }
      setProblem({ message: answer.status === 409 ? t("errorApply") : failureMessage(t, answer.status), offerBuiltIn: false });
    });

  const answeredBy =
    plan?.answeredBy.provider === "openai-compatible"
      ? t("answeredModel", { model: plan.answeredBy.model })
      : t("answeredBuiltIn");

  return (
    <section className="goal-section" aria-labelledby="goal-plan-title" aria-busy={busy === "generate"}>
      <h2 id="goal-plan-title">{t("planTitle")}</h2>
      <p className="goal-hint">{t("planLead")}</p>
      <FormMessage kind="error" message={problem?.message} />
      <FormMessage kind="status" message={notice} />
      <fieldset className="goal-plan-days">
        <legend>{t("planDays")}</legend>
        <p className="goal-hint" id="goal-plan-days-hint">
          {t("planDaysHint")}
        </p>
        <div className="goal-plan-day-list">
          {WEEKDAYS.map((day) => (
            <label key={day} className="goal-plan-day">
              <input
                type="checkbox"
                aria-describedby="goal-plan-days-hint"
                checked={weekdays.includes(day)}
                onChange={(event) =>
                  setWeekdays((days) =>
                    event.target.checked ? [...days, day].sort((a, b) => a - b) : days.filter((d) => d !== day),
                  )
                }
              />
              {dayNames.get(day)}
            </label>
          ))}
        </div>
        <label className="goal-plan-day">
          <input type="checkbox" checked={skipHolidays} onChange={(event) => setSkipHolidays(event.target.checked)} />
          {t("skipHolidays")}
        </label>
      </fieldset>
      <div className="goal-actions">
        <button
          className="button primary"
          type="button"
          disabled={busy !== null}
          aria-busy={busy === "generate"}
          onClick={() => generate()}
        >
          {busy === "generate" ? t("working") : plan ? t("regenerate") : t("generate")}
        </button>
        {problem?.offerBuiltIn && (
          <button className="button" type="button" disabled={busy !== null} onClick={() => generate("built-in")}>
            {t("useBuiltIn")}
          </button>
        )}
        {plan && !plan.appliedAt && plan.sessions.length > 0 && (
          <button className="button" type="button" disabled={busy !== null} aria-busy={busy === "apply"} onClick={() => apply()}>
            {busy === "apply" ? t("working") : t("apply", { count: plan.sessions.length })}
          </button>
        )}
        {problem?.offerReplace && (
          <>
            <button className="button" type="button" disabled={busy !== null} onClick={() => apply(true)}>
              {t("applyAnyway")}
            </button>
            {/* Keeping the progress set by hand: the question goes, nothing is made. */}
            <button className="button" type="button" disabled={busy !== null} onClick={() => setProblem(null)}>
              {t("cancel")}
            </button>
          </>
        )}
      </div>
      {!plan && <p className="goals-empty">{aiConfigured ? t("noPlanAi") : t("noPlan")}</p>}
      {plan && (
        <div className="goal-plan">
          <p className="goal-plan-meta">
            <span>{t("planMeta", { version: plan.version, from: localDate(plan.startDate), to: localDate(plan.endDate) })}</span>
            <span className="goal-plan-author">{answeredBy}</span>
          </p>
          {plan.fallbackReason && <p className="goal-plan-note">{t("fallback")}</p>}
          {plan.adjustments.length > 0 && <p className="goal-plan-note">{t("adjusted", { count: plan.adjustments.length })}</p>}
          {plan.holidayCountry && plan.skippedHolidays.length > 0 && (
            <p className="goal-plan-note">
              {t("holidaysSkipped", {
                country: new Intl.DisplayNames(locale, { type: "region" }).of(plan.holidayCountry) ?? plan.holidayCountry,
                holidays: format.list(plan.skippedHolidays.map((holiday) => `${localDate(holiday.date)} (${holiday.name})`)),
              })}
            </p>
          )}
          {plan.appliedAt && (
            <p className="goal-plan-note">
              {t("applied", { date: format.dateTime(new Date(plan.appliedAt), { dateStyle: "medium" }) })}
            </p>
          )}
          <ol className="goal-plan-sessions">
            {plan.sessions.map((session, index) => (
              <li key={`${session.date}-${index}`}>
                <h3>
                  <time dateTime={session.date}>{localDate(session.date, "long")}</time>
                  <span dir="auto">{session.title}</span>
                </h3>
                <ul>
                  {session.steps.map((step, stepIndex) => (
                    <li key={stepIndex} dir="auto">
                      {step}
                    </li>
                  ))}
                </ul>
              </li>
            ))}
          </ol>
        </div>
      )}
    </section>
  );
}
