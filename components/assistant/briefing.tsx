import { useFormatter, useTranslations } from "next-intl";
import { PriorityBadge, DueDate } from "@/components/tasks/task-fields";
import type { Actor } from "@/lib/auth/actor";
import type { BriefingOutput, FactGoalOutput, FactTaskOutput } from "@/lib/assistant/schema";
import { briefingNarrative, type BriefingData } from "@/lib/assistant/service";
import type { Locale } from "@/lib/i18n/locales";
import { AnsweredByNote } from "./answered-by";
import { GoalProgress } from "./goal-progress";

/*
 * The parts of /{locale}/briefing: the day's tasks and the overdue ones (each a link to the task), the goals
 * with their progress, and the narrative, which may wait on the AI endpoint and so renders on its own, after
 * the rest of the page (in a Suspense boundary).
 */

export function BriefingTasks(props: { tasks: FactTaskOutput[]; now: string; timeZone: string; locale: string; empty: string }) {
  if (props.tasks.length === 0) return <p className="assistant-empty">{props.empty}</p>;
  return (
    <ul className="briefing-tasks">
      {props.tasks.map((task) => (
        <li key={task.id}>
          <a href={`/${props.locale}/tasks/${task.id}`} dir="auto">
            {task.title}
          </a>
          <span className="briefing-task-meta">
            {task.dueAt && <DueDate dueAt={task.dueAt} now={props.now} timeZone={props.timeZone} />}
            <PriorityBadge priority={task.priority} />
          </span>
        </li>
      ))}
    </ul>
  );
}

/** The cards due for review by the end of the day (the first few, and how many in all), with a link to review them. */
export function BriefingReviews(props: {
  lists: Pick<BriefingOutput, "reviews" | "reviewsDue" | "reviewsAvailable">;
  timeZone: string;
  locale: string;
}) {
  const t = useTranslations("Briefing");
  const format = useFormatter();
  const { reviews, reviewsDue, reviewsAvailable } = props.lists;
  if (!reviewsAvailable) return <p className="assistant-empty">{t("reviewsUnavailable")}</p>;
  if (reviewsDue === 0) return <p className="assistant-empty">{t("reviewsNone")}</p>;
  return (
    <>
      <p>{t("reviewsDue", { count: reviewsDue })}</p>
      <ul className="briefing-tasks">
        {reviews.map((review) => (
          <li key={review.id}>
            <span dir="auto">{review.front}</span>
            <span className="briefing-task-meta">
              {t("reviewDue", {
                time: format.dateTime(new Date(review.dueAt), {
                  timeZone: props.timeZone,
                  dateStyle: "medium",
                  timeStyle: "short",
                }),
              })}
            </span>
          </li>
        ))}
      </ul>
      <p>
        <a className="button primary" href={`/${props.locale}/reviews`}>
          {t("reviewNow")}
        </a>
      </p>
    </>
  );
}

export function BriefingGoals({ goals }: { goals: FactGoalOutput[] }) {
  const t = useTranslations("Briefing");
  const format = useFormatter();
  if (goals.length === 0) return <p className="assistant-empty">{t("noGoals")}</p>;
  return (
    <ul className="goals">
      {goals.map((goal) => (
        <GoalProgress key={goal.id} title={goal.title} progress={goal.progress}>
          {t("goalProgress", { progress: goal.progress })}
          {goal.progressMode === "tasks" && <span className="goal-source">{t("goalFromTasks")}</span>}
          {goal.targetDate && (
            <span className="goal-target">
              {t("goalTarget", {
                date: format.dateTime(new Date(`${goal.targetDate}T12:00:00Z`), { timeZone: "UTC", dateStyle: "medium" }),
              })}
            </span>
          )}
        </GoalProgress>
      ))}
    </ul>
  );
}

/** The day in a few sentences, from the AI endpoint when one is configured (the built-in ones if it fails). */
export async function BriefingNarrative({ actor, briefing, locale }: { actor: Actor; briefing: BriefingData; locale: Locale }) {
  const narrative = await briefingNarrative(actor, briefing, locale);
  return (
    <>
      <p className="assistant-narrative" dir="auto">
        {narrative.text}
      </p>
      <AnsweredByNote answeredBy={narrative.answeredBy} fallback={narrative.fallbackReason !== null} />
    </>
  );
}
