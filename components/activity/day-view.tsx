"use client";

import { useFormatter, useTranslations } from "next-intl";
import { useId, useRef, useState } from "react";
import { api } from "@/lib/api-client/client";
import type { DailyOutput } from "@/lib/activity/schema";
import { AppList, CategoryBars, ColumnChart } from "./charts";
import { useDuration, useLocalDate } from "./format";

/*
 * One day on /{locale}/activity: a date picker (today by default, nothing after today) and the day's time per hour,
 * per category and per app (`GET /activity/daily`). The first day comes rendered with the page; another date is
 * fetched when picked, and an answer for a date picked earlier is dropped if a later pick overtook it.
 */

type State = "ready" | "loading" | "invalid" | "failed" | "signedOut";

const LOCAL_DATE = /^\d{4}-\d{2}-\d{2}$/;

export function DayView({ initial, today }: { initial: DailyOutput; today: string }) {
  const t = useTranslations("Activity");
  const format = useFormatter();
  const duration = useDuration();
  const localDate = useLocalDate();
  const id = useId();
  const [date, setDate] = useState(initial.date);
  const [day, setDay] = useState(initial);
  const [state, setState] = useState<State>("ready");
  const latest = useRef(0);

  async function show(value: string) {
    setDate(value);
    const request = ++latest.current;
    if (!LOCAL_DATE.test(value) || value > today) return setState("invalid");
    setState("loading");
    try {
      const answer = await api.GET("/api/v1/activity/daily", { params: { query: { date: value } } });
      if (request !== latest.current) return;
      if (answer.ok) {
        setDay(answer.body);
        setState("ready");
      } else {
        setState(answer.status === 401 ? "signedOut" : "failed");
      }
    } catch {
      if (request === latest.current) setState("failed");
    }
  }

  const problem =
    state === "invalid"
      ? t("dayInvalid")
      : state === "failed"
        ? t("dayFailed")
        : state === "signedOut"
          ? t("errorSignedOut")
          : null;
  const hour = (instant: string) => format.dateTime(new Date(instant), { hour: "numeric", minute: "2-digit" });
  return (
    <section className="activity-card" aria-labelledby="activity-day-title">
      <header className="activity-card-header">
        <h2 id="activity-day-title">{t("dayTitle")}</h2>
        <div className="activity-field">
          <label htmlFor={`${id}-date`}>{t("dayLabel")}</label>
          <input
            id={`${id}-date`}
            type="date"
            value={date}
            max={today}
            required
            onChange={(event) => show(event.currentTarget.value)}
            aria-invalid={state === "invalid" ? true : undefined}
            aria-describedby={problem ? `${id}-problem` : undefined}
          />
          {problem && (
            <p id={`${id}-problem`} className="activity-error" role="alert">
              {problem}
            </p>
          )}
        </div>
      </header>
      <div className="activity-day" aria-busy={state === "loading"}>
        <p className="activity-day-total" role="status">
          {state === "loading"
            ? t("dayLoading")
            : t("dayTotal", { date: localDate(day.date, "full"), duration: duration(day.totalSeconds) })}
        </p>
        {day.totalSeconds === 0 ? (
          <p className="activity-muted">{t("dayEmpty")}</p>
        ) : (
          <div className="activity-grid">
            <div className="activity-grid-wide">
              <h3 id="activity-day-hours">{t("byHour")}</h3>
              <ColumnChart
                dense
                labelledBy="activity-day-hours"
                columns={day.hours.map((slot) => ({
                  key: slot.startsAt,
                  seconds: slot.seconds,
                  axisLabel: slot.hour % 6 === 0 ? hour(slot.startsAt) : undefined,
                  name: hour(slot.startsAt),
                }))}
              />
            </div>
            <div>
              <h3 id="activity-day-categories">{t("byCategory")}</h3>
              <CategoryBars items={day.categories} labelledBy="activity-day-categories" />
            </div>
            <div>
              <h3 id="activity-day-apps">{t("apps")}</h3>
              <AppList apps={day.apps} labelledBy="activity-day-apps" />
            </div>
          </div>
        )}
      </div>
    </section>
  );
}
