"use client";

import { useFormatter, useTranslations } from "next-intl";
import { useEffect, useRef, useState } from "react";
import { api } from "@/lib/api-client/client";
import { useLiveEvents } from "@/components/realtime/use-live-events";
import type { GoalOutput, ReportOutput, StudyPlanOutput } from "@/lib/goals/schema";
import { GoalEditor } from "./goal-editor";
import { GoalStatusBadge, ProgressBar, useLocalDate } from "./goal-fields";
import { LinkedTasks } from "./linked-tasks";
import { ProgressReports } from "./progress-reports";
import { StudyPlanView } from "./study-plan-view";

const RELOAD_DELAY_MS = 300;

interface Props {
  locale: string;
  goal: GoalOutput;
  reports: ReportOutput[];
  plan: StudyPlanOutput | null;
  /** Rendered on the server: the same in the first paint and after hydration. */
  today: string;
  now: string;
  timeZone: string;
  aiConfigured: boolean;
  /** Whether the `ai` module (which study plans belong to) is on. */
  studyPlans: boolean;
}

/**
 * One goal's page below its server-rendered first paint: the summary, the editor, linked tasks, progress reports
 * with their chart, and the study plan. A change to a linked task (here or anywhere) updates the derived progress.
 */
export function GoalDetail(props: Props) {
  const t = useTranslations("Goals");
  const format = useFormatter();
  const localDate = useLocalDate();
  const [goal, setGoal] = useState(props.goal);
  const [reports, setReports] = useState(props.reports);
  const [plan, setPlan] = useState(props.plan);

  const pending = useRef<ReturnType<typeof setTimeout>>(undefined);

  /** Reads the goal again: its progress follows its linked tasks, or (measured by hand) its newest report. */
  async function reloadGoal() {
    const answer = await api.GET("/api/v1/goals/{id}", { params: { path: { id: goal.id } } }).catch(() => null);
    if (answer?.ok) setGoal(answer.body);
  }

  /** Reads the goal again, once for a burst of events (applying a plan announces every task it made). */
  function reloadSoon() {
    clearTimeout(pending.current);
    pending.current = setTimeout(reloadGoal, RELOAD_DELAY_MS);
  }
  useEffect(() => () => clearTimeout(pending.current), []);

  useLiveEvents({
    onEvent(event) {
      if (event.taskId && goal.linkedTasks.some((task) => task.id === event.taskId)) reloadSoon();
    },
    onResync: reloadSoon,
  });

  return (
    <>
      <header className="goal-header">
        <a className="goal-back" href={`/${props.locale}/goals`}>
          {t("backToGoals")}
        </a>
        <div className="goal-title-row">
          <h1 dir="auto">{goal.title}</h1>
          <GoalStatusBadge status={goal.status} />
        </div>
        <ProgressBar value={goal.progress} label={t("progressLabel", { title: goal.title })} />
        <p className="goal-card-meta">
          {goal.targetDate && <span>{t("targetOn", { date: localDate(goal.targetDate) })}</span>}
          {goal.achievedAt && (
            <span>{t("achievedOn", { date: format.dateTime(new Date(goal.achievedAt), { dateStyle: "medium" }) })}</span>
          )}
        </p>
      </header>
      <GoalEditor locale={props.locale} goal={goal} onSaved={setGoal} />
      <LinkedTasks locale={props.locale} goal={goal} onChange={setGoal} now={props.now} timeZone={props.timeZone} />
      <ProgressReports
        goalId={goal.id}
        reports={reports}
        onChange={(next) => {
          setReports(next);
          void reloadGoal();
        }}
        today={props.today}
        progress={goal.progress}
        progressMode={goal.progressMode}
      />
      {props.studyPlans && (
        <StudyPlanView
          goalId={goal.id}
          plan={plan}
          onPlan={setPlan}
          onApplied={(applied) => {
            setPlan(applied.studyPlan);
            setGoal(applied.goal);
          }}
          aiConfigured={props.aiConfigured}
        />
      )}
    </>
  );
}
