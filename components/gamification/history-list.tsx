import { useFormatter, useTranslations } from "next-intl";
import type { AwardOutput } from "@/lib/gamification/schema";

/** The latest points earned, task by task, with the time in the reader's own time zone (their profile's). */
export function HistoryList({ items, timeZone }: { items: readonly AwardOutput[]; timeZone: string }) {
  const t = useTranslations("Achievements");
  const format = useFormatter();
  if (items.length === 0) return <p className="achievements-muted">{t("historyEmpty")}</p>;
  return (
    <ul className="achievements-history">
      {items.map((item) => (
        <li key={item.id}>
          <span className="achievements-history-title">{item.taskTitle}</span>
          {item.onTime !== null && (
            <span className="achievements-tag">{item.onTime ? t("historyOnTime") : t("historyLate")}</span>
          )}
          <time dateTime={item.completedAt} className="achievements-muted">
            {format.dateTime(new Date(item.completedAt), { dateStyle: "medium", timeStyle: "short", timeZone })}
          </time>
          <strong className="achievements-history-points">{format.number(item.points, { signDisplay: "always" })}</strong>
        </li>
      ))}
    </ul>
  );
}
