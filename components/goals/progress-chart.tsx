import { useFormatter, useTranslations } from "next-intl";
import { useId } from "react";
import type { ReportOutput } from "@/lib/goals/schema";
import { useLocalDate } from "./goal-fields";

/*
 * A goal's progress reports as a line chart in plain SVG: time across (by date, so that gaps between reports show),
 * 0-100 % up. It is an image with a title and a description that sum it up; the table beside it holds every value.
 */

const WIDTH = 640;
const HEIGHT = 260;
const PAD = { top: 16, right: 24, bottom: 40, left: 76 };
const TICKS = [0, 25, 50, 75, 100];
const DAY_MS = 24 * 3600 * 1000;

const dayNumber = (date: string) => Date.parse(`${date}T00:00:00Z`) / DAY_MS;

export function ProgressChart({ reports }: { reports: readonly ReportOutput[] }) {
  const t = useTranslations("Goals");
  const format = useFormatter();
  const localDate = useLocalDate();
  const id = useId();
  const first = reports[0];
  const last = reports.at(-1);
  if (!first || !last) return null;

  const innerWidth = WIDTH - PAD.left - PAD.right;
  const innerHeight = HEIGHT - PAD.top - PAD.bottom;
  const start = dayNumber(first.date);
  const span = dayNumber(last.date) - start;
  const x = (date: string) => PAD.left + (span === 0 ? innerWidth / 2 : ((dayNumber(date) - start) / span) * innerWidth);
  const y = (value: number) => PAD.top + innerHeight - (value / 100) * innerHeight;
  const points = reports.map((report) => `${x(report.date).toFixed(1)},${y(report.value).toFixed(1)}`).join(" ");
  const percent = (value: number) => format.number(value / 100, { style: "percent" });

  return (
    <svg
      className="goal-chart"
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      role="img"
      aria-labelledby={`${id}-title ${id}-desc`}
      // Time runs left to right in every language: the chart is not mirrored on right-to-left pages.
      direction="ltr"
    >
      <title id={`${id}-title`}>{t("chartTitle")}</title>
      <desc id={`${id}-desc`}>
        {t("chartDesc", {
          count: reports.length,
          first: localDate(first.date),
          last: localDate(last.date),
          latest: percent(last.value),
        })}
      </desc>
      {TICKS.map((tick) => (
        <g key={tick} className="goal-chart-grid">
          <line x1={PAD.left} x2={WIDTH - PAD.right} y1={y(tick)} y2={y(tick)} />
          <text x={PAD.left - 8} y={y(tick)} textAnchor="end" dominantBaseline="middle">
            {percent(tick)}
          </text>
        </g>
      ))}
      <text
        className="goal-chart-axis"
        x={span === 0 ? x(first.date) : PAD.left}
        y={HEIGHT - 10}
        textAnchor={span === 0 ? "middle" : "start"}
      >
        {localDate(first.date, "short")}
      </text>
      {span > 0 && (
        <text className="goal-chart-axis" x={WIDTH - PAD.right} y={HEIGHT - 10} textAnchor="end">
          {localDate(last.date, "short")}
        </text>
      )}
      <polyline className="goal-chart-line" points={points} />
      {reports.map((report) => (
        <circle key={report.id} className="goal-chart-point" cx={x(report.date)} cy={y(report.value)} r={5} />
      ))}
    </svg>
  );
}
