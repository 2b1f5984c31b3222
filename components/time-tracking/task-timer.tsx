"use client";

import { useTranslations } from "next-intl";
import { useEffect, useId, useState } from "react";
import { api } from "@/lib/api-client/client";
import { FormError } from "@/components/auth/form-field";
import type { TaskTimeOutput } from "@/lib/time-tracking/schema";
import { formatDuration } from "./duration";

/*
 * The timer on the task page: start or stop your timer on this task (starting it stops one running on another
 * task: the API says which), the running time counting up each second, and the time tracked on the task in all.
 * Shown only while the time-tracking module is on (the page decides).
 */

/** `announce` says what happened in the task page's status region; errors show in the panel. */
export function TaskTimer({
  taskId,
  initial,
  announce,
}: {
  taskId: string;
  initial: TaskTimeOutput;
  announce: (message: string) => void;
}) {
  const t = useTranslations("TimeTracking");
  const id = useId();
  const [time, setTime] = useState(initial);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [now, setNow] = useState(() => Date.now());
  const running = time.running;

  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [running]);

  const elapsed = running ? Math.max(0, Math.floor((now - Date.parse(running.startedAt)) / 1000)) : 0;
  // The totals were measured when last read: the running timer has gone on since.
  const since = running ? Math.max(0, elapsed - running.durationSeconds) : 0;

  async function refresh() {
    const answer = await api.GET("/api/v1/tasks/{id}/time", { params: { path: { id: taskId } } }).catch(() => null);
    if (answer?.ok) setTime(answer.body);
    setNow(Date.now());
  }

  async function toggle() {
    setBusy(true);
    setError(undefined);
    const answer = running
      ? await api.POST("/api/v1/timer/stop").catch(() => null)
      : await api.POST("/api/v1/tasks/{id}/timer/start", { params: { path: { id: taskId } }, body: {} }).catch(() => null);
    if (answer?.ok) {
      await refresh();
      const stoppedOther = !running && answer.body && "stopped" in answer.body && answer.body.stopped;
      announce(
        running ? t("timerStopped") : stoppedOther ? t("timerSwitched", { task: stoppedOther.taskTitle }) : t("timerStarted"),
      );
    } else {
      setError(answer?.status === 409 ? t("errorNotRunning") : t("errorGeneric"));
      await refresh();
    }
    setBusy(false);
  }

  return (
    <section className="task-card task-timer" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t("timerTitle")}</h2>
      {running && (
        <p className="task-timer-running">
          {t("runningFor")} <time dateTime={`PT${elapsed}S`}>{formatDuration(elapsed)}</time>
        </p>
      )}
      <p className="auth-hint">
        {t("taskTotal", { time: formatDuration(time.totalSeconds + since) })} ·{" "}
        {t("mine", { time: formatDuration(time.mineSeconds + since) })}
      </p>
      <FormError id={`${id}-error`} message={error} />
      <button
        type="button"
        className={running ? "button" : "button primary"}
        disabled={busy}
        aria-busy={busy}
        onClick={() => void toggle()}
      >
        {running ? t("stop") : t("start")}
      </button>
    </section>
  );
}
