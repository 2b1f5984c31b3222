import { useTranslations } from "next-intl";
import type { ActivityCategory } from "@/lib/activity/vocabulary";
import { barSize, useDuration } from "./format";

/*
 * The activity page's charts, in plain CSS. Each is a list whose text says everything the bars show (the bars are
 * aria-hidden), so that a screen reader, a text browser and a printout get the same numbers. Logical sizes only:
 * in Hebrew the bars grow from the right and the columns run right to left.
 */

/** Time per category: one bar per category, the longest filling the track. */
export function CategoryBars({
  items,
  labelledBy,
}: {
  items: readonly { category: ActivityCategory; seconds: number }[];
  labelledBy: string;
}) {
  const t = useTranslations("Activity");
  const duration = useDuration();
  const largest = Math.max(0, ...items.map((item) => item.seconds));
  return (
    <ul className="activity-bars" aria-labelledby={labelledBy}>
      {items.map(({ category, seconds }) => (
        <li key={category}>
          <span className="activity-bar-label">{t(`category.${category}`)}</span>
          <span className="activity-bar-track" aria-hidden="true">
            <span className="activity-bar" style={{ inlineSize: barSize(seconds, largest) }} />
          </span>
          <span className="activity-bar-value">{duration(seconds)}</span>
        </li>
      ))}
    </ul>
  );
}

export interface Column {
  key: string;
  seconds: number;
  /** What the axis shows under the column (left out for crowded axes); hidden from screen readers. */
  axisLabel?: string;
  /** The column's full name for screen readers: "Tuesday, 10 November 2026", "14:00". */
  name: string;
}

/** Time per day or per hour, as columns standing on one axis. */
export function ColumnChart({
  columns,
  labelledBy,
  dense = false,
}: {
  columns: readonly Column[];
  labelledBy: string;
  dense?: boolean;
}) {
  const t = useTranslations("Activity");
  const duration = useDuration();
  const largest = Math.max(0, ...columns.map((column) => column.seconds));
  return (
    <ol className={dense ? "activity-columns activity-columns-dense" : "activity-columns"} aria-labelledby={labelledBy}>
      {columns.map((column) => (
        <li key={column.key}>
          <span className="activity-column-track" aria-hidden="true">
            <span className="activity-column" style={{ blockSize: barSize(column.seconds, largest) }} />
          </span>
          <span className="activity-column-label" aria-hidden="true">
            {column.axisLabel}
          </span>
          <span className="activity-visually-hidden">
            {t("columnText", { name: column.name, duration: duration(column.seconds) })}
          </span>
        </li>
      ))}
    </ol>
  );
}

/** Apps, most used first, with their category and time. */
export function AppList({
  apps,
  labelledBy,
}: {
  apps: readonly { app: string; category: ActivityCategory; seconds: number }[];
  labelledBy: string;
}) {
  const t = useTranslations("Activity");
  const duration = useDuration();
  return (
    <ol className="activity-apps" aria-labelledby={labelledBy}>
      {apps.map(({ app, category, seconds }) => (
        <li key={app}>
          <span className="activity-app">
            <span className="activity-app-name" dir="auto">
              {app}
            </span>
            <span className="activity-app-category">{t(`category.${category}`)}</span>
          </span>
          <span className="activity-app-time">{duration(seconds)}</span>
        </li>
      ))}
    </ol>
  );
}
