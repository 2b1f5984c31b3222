"use client";

import { useTranslations } from "next-intl";
import { useState } from "react";
import { api } from "@/lib/api-client/client";
import { DueDate, StatusBadge } from "@/components/tasks/task-fields";
import type { GoalOutput } from "@/lib/goals/schema";
import type { TaskOutput } from "@/lib/tasks/schema";
import { failureMessage, Field, FormMessage } from "./goal-fields";

const SEARCH_LIMIT = 10;

interface Props {
  locale: string;
  goal: GoalOutput;
  onChange(goal: GoalOutput): void;
  /** The moment the page was rendered and the user's time zone, for due dates that read the same on both sides. */
  now: string;
  timeZone: string;
}

/**
 * The tasks linked to a goal (each to its own page), unlinking, and a search of the user's tasks
 * (`GET /tasks?q=`) to link more (`PUT /goals/{id}/tasks/{taskId}`).
 */
export function LinkedTasks({ locale, goal, onChange, now, timeZone }: Props) {
  const t = useTranslations("Goals");
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string>();
  const [results, setResults] = useState<TaskOutput[] | null>(null);
  const linkedIds = new Set(goal.linkedTasks.map((task) => task.id));

  async function change(method: "PUT" | "DELETE", taskId: string) {
    setBusy(taskId);
    setError(undefined);
    try {
      const answer =
        method === "PUT"
          ? await api.PUT("/api/v1/goals/{id}/tasks/{taskId}", { params: { path: { id: goal.id, taskId } } })
          : await api.DELETE("/api/v1/goals/{id}/tasks/{taskId}", { params: { path: { id: goal.id, taskId } } });
      if (answer.ok) onChange(answer.body);
      else setError(answer.status === 409 ? t("errorLimit") : failureMessage(t, answer.status));
    } catch {
      setError(t("errorGeneric"));
    } finally {
      setBusy(null);
    }
  }

  async function search(query: string) {
    setError(undefined);
    if (!query) return setResults(null);
    setBusy("search");
    try {
      const answer = await api.GET("/api/v1/tasks", { params: { query: { q: query, limit: SEARCH_LIMIT } } });
      if (answer.ok) setResults(answer.body.items);
      else setError(failureMessage(t, answer.status));
    } catch {
      setError(t("errorGeneric"));
    } finally {
      setBusy(null);
    }
  }

  return (
    <section className="goal-section" aria-labelledby="goal-tasks-title">
      <h2 id="goal-tasks-title">{t("tasksTitle")}</h2>
      <p className="goal-hint">{t("tasksLead")}</p>
      <FormMessage kind="error" message={error} />
      {goal.linkedTasks.length === 0 ? (
        <p className="goals-empty">{t("noLinkedTasks")}</p>
      ) : (
        <ul className="goal-task-list">
          {goal.linkedTasks.map((task) => (
            <li key={task.id}>
              <a href={`/${locale}/tasks/${task.id}`} dir="auto">
                {task.title}
              </a>
              <StatusBadge status={task.status} />
              {task.dueAt && (
                <DueDate
                  dueAt={task.dueAt}
                  now={now}
                  timeZone={timeZone}
                  finished={task.status === "done" || task.status === "cancelled"}
                />
              )}
              <button
                className="button small"
                type="button"
                disabled={busy !== null}
                aria-label={t("unlinkLabel", { title: task.title })}
                onClick={() => change("DELETE", task.id)}
              >
                {t("unlink")}
              </button>
            </li>
          ))}
        </ul>
      )}
      <form
        className="goal-search"
        role="search"
        onSubmit={(event) => {
          event.preventDefault();
          void search(String(new FormData(event.currentTarget).get("q") ?? "").trim());
        }}
      >
        <Field label={t("searchLabel")}>
          {(control) => <input {...control} name="q" type="search" maxLength={200} dir="auto" />}
        </Field>
        <button className="button" type="submit" disabled={busy !== null} aria-busy={busy === "search"}>
          {t("search")}
        </button>
      </form>
      <div aria-live="polite">
        {results !== null &&
          (results.length === 0 ? (
            <p className="goals-empty">{t("searchEmpty")}</p>
          ) : (
            <ul className="goal-task-list" aria-label={t("searchResults")}>
              {results.map((task) => (
                <li key={task.id}>
                  <span dir="auto">{task.title}</span>
                  <StatusBadge status={task.status} />
                  {linkedIds.has(task.id) ? (
                    <span className="goal-hint">{t("linked")}</span>
                  ) : (
                    <button
                      className="button small"
                      type="button"
                      disabled={busy !== null}
                      aria-label={t("linkLabel", { title: task.title })}
                      onClick={() => change("PUT", task.id)}
                    >
                      {t("link")}
                    </button>
                  )}
                </li>
              ))}
            </ul>
          ))}
      </div>
    </section>
  );
}
