import { useTranslations } from "next-intl";
import type { GoalOutput } from "@/lib/goals/schema";
import { GoalStatusBadge, ProgressBar, useLocalDate } from "./goal-fields";

/** The user's goals as cards: title (to the goal's page), status, progress bar, target date and linked tasks. */
export function GoalList({ goals, locale }: { goals: readonly GoalOutput[]; locale: string }) {
  const t = useTranslations("Goals");
  const localDate = useLocalDate();
  if (goals.length === 0) return <p className="goals-empty">{t("empty")}</p>;
  return (
    <ul className="goal-list">
      {goals.map((goal) => {
        const counted = goal.linkedTasks.filter((task) => task.status !== "cancelled");
        return (
          <li key={goal.id} className="goal-card">
            <div className="goal-card-head">
              <h3>
                <a href={`/${locale}/goals/${goal.id}`}>{goal.title}</a>
              </h3>
              <GoalStatusBadge status={goal.status} />
            </div>
            <ProgressBar value={goal.progress} label={t("progressLabel", { title: goal.title })} />
            <p className="goal-card-meta">
              {goal.targetDate && <span>{t("targetOn", { date: localDate(goal.targetDate) })}</span>}
              {goal.progressMode === "tasks" && (
                <span>
                  {t("tasksDone", { done: counted.filter((task) => task.status === "done").length, total: counted.length })}
                </span>
              )}
            </p>
          </li>
        );
      })}
    </ul>
  );
}
