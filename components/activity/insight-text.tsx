import { useFormatter, useTranslations } from "next-intl";
import type { ActivityFacts, Insight } from "@/lib/activity/schema";
import type { ActivityCategory } from "@/lib/activity/vocabulary";
import { useDuration, useWallHour } from "./format";

/*
 * One finding of the built-in assistant in the page's language: the API sends each as a kind with its numbers, so
 * that every language words it itself. Focus suggestions link the task due first.
 */

export function InsightText({ insight, facts, locale }: { insight: Insight; facts: ActivityFacts; locale: string }) {
  const t = useTranslations("Activity");
  const format = useFormatter();
  const duration = useDuration();
  const wallHour = useWallHour();
  const category = (name: ActivityCategory) => t(`category.${name}`);

  switch (insight.kind) {
    case "noData":
      return <p>{t("insightNoData")}</p>;
    case "noOpenTasks":
      return <p>{t("insightNoOpenTasks")}</p>;
    case "change": {
      const values = { total: duration(insight.totalSeconds), previous: duration(insight.previousTotalSeconds) };
      if (insight.changePercent === null) return <p>{t("insightChangeNoPrevious", values)}</p>;
      if (insight.changePercent === 0) return <p>{t("insightChangeSame", values)}</p>;
      const key = insight.changePercent > 0 ? "insightChangeUp" : "insightChangeDown";
      return <p>{t(key, { ...values, percent: Math.abs(insight.changePercent) })}</p>;
    }
    case "heaviestCategory":
      return (
        <p>
          {t("insightHeaviestCategory", {
            category: category(insight.category),
            duration: duration(insight.seconds),
            percent: insight.sharePercent,
            average: duration(insight.dailyAverageSeconds),
          })}
        </p>
      );
    case "topApp":
      return (
        <p>
          {t("insightTopApp", {
            app: insight.app,
            duration: duration(insight.seconds),
            average: duration(insight.dailyAverageSeconds),
          })}
        </p>
      );
    case "lateNight":
      return <p>{t("insightLateNight", { nights: insight.nights, duration: duration(insight.seconds) })}</p>;
    case "focus": {
      const source = facts.categories.find((item) => item.category === insight.fromCategory);
      return (
        <p>
          {t("insightFocusTasks", { open: insight.openTasks, overdue: insight.overdueTasks, dueSoon: insight.dueSoonTasks })}{" "}
          {t("insightFocusPlan", { minutes: insight.minutesPerDay })}
          {source && (
            <>
              {" "}
              {t("insightFocusFrom", {
                category: category(source.category),
                average: duration(Math.round(source.seconds / facts.days)),
              })}
            </>
          )}
          {insight.peakHour !== null && <> {t("insightFocusPeak", { hour: wallHour(insight.peakHour) })}</>}
          {insight.nextTask && (
            <>
              {" "}
              {t.rich("insightFocusNext", {
                title: insight.nextTask.title,
                due: format.dateTime(new Date(insight.nextTask.dueAt), { dateStyle: "medium", timeStyle: "short" }),
                link: (chunks) => <a href={`/${locale}/tasks/${insight.nextTask!.id}`}>{chunks}</a>,
              })}
            </>
          )}
        </p>
      );
    }
  }
}
