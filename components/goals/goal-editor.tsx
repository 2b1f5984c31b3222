"use client";

import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { fieldErrors } from "@/components/auth/call-api";
import { api } from "@/lib/api-client/client";
import { useFormSave } from "@/components/auth/use-form-save";
import type { GoalOutput } from "@/lib/goals/schema";
import { GOAL_DESCRIPTION_MAX, GOAL_STATUSES, GOAL_TITLE_MAX } from "@/lib/goals/vocabulary";
import { failureMessage, Field, FormMessage } from "./goal-fields";

type FieldName = "title" | "description" | "targetDate" | "status" | "progress";

interface Props {
  locale: string;
  goal: GoalOutput;
  onSaved(goal: GoalOutput): void;
}

/**
 * Edits a goal (`PATCH /goals/{id}`) and deletes it. While tasks are linked the progress follows them and is shown,
 * not asked for; otherwise it is a number field.
 */
export function GoalEditor({ locale, goal, onSaved }: Props) {
  const t = useTranslations("Goals");
  const router = useRouter();
  const { busy, setBusy, saved, setSaved, errors, setErrors, submitWith } = useFormSave<FieldName>(t("errorGeneric"));
  const [confirming, setConfirming] = useState(false);
  const derived = goal.progressMode === "tasks";
  const messages: Record<FieldName, string> = {
    title: t("errorTitle", { max: GOAL_TITLE_MAX }),
    description: t("errorDescription", { max: GOAL_DESCRIPTION_MAX }),
    targetDate: t("errorTargetDate"),
    status: t("errorGeneric"),
    progress: t("errorProgress"),
  };

  async function save(data: FormData) {
    const title = String(data.get("title") ?? "").trim();
    const rawProgress = String(data.get("progress") ?? "");
    const progress = derived ? undefined : Number(rawProgress);
    const fields: Partial<Record<FieldName, string>> = {};
    if (!title) fields.title = messages.title;
    if (progress !== undefined && (rawProgress === "" || !Number.isInteger(progress) || progress < 0 || progress > 100)) {
      fields.progress = messages.progress;
    }
    if (Object.keys(fields).length) return setErrors({ form: t("errorSummary"), fields });
    const answer = await api.PATCH("/api/v1/goals/{id}", {
      params: { path: { id: goal.id } },
      body: {
        title,
        description: String(data.get("description") ?? ""),
        targetDate: String(data.get("targetDate") ?? "") || null,
        // One of the statuses the select offers (the server refuses any other).
        status: String(data.get("status")) as GoalOutput["status"],
        ...(progress === undefined ? {} : { progress }),
      },
    });
    if (answer.ok) {
      onSaved(answer.body);
      return setSaved(true);
    }
    if (answer.status === 400) {
      const found = fieldErrors(answer.body, messages);
      return setErrors({ form: Object.keys(found).length ? t("errorSummary") : t("errorGeneric"), fields: found });
    }
    // 409: a task was linked meanwhile (in another tab): the progress follows the tasks now.
    setErrors({ form: answer.status === 409 ? t("errorProgressDerived") : failureMessage(t, answer.status), fields: {} });
  }

  async function remove() {
    setBusy(true);
    const answer = await api.DELETE("/api/v1/goals/{id}", { params: { path: { id: goal.id } } }).catch(() => null);
    if (answer?.ok) return router.push(`/${locale}/goals`);
    setBusy(false);
    setConfirming(false);
    setErrors({ form: answer ? failureMessage(t, answer.status) : t("errorGeneric"), fields: {} });
  }

  return (
    <section className="goal-section" aria-labelledby="goal-details-title">
      <h2 id="goal-details-title">{t("detailsTitle")}</h2>
      <FormMessage id="goal-edit-error" kind="error" message={errors.form} />
      <FormMessage kind="status" message={saved ? t("saved") : ""} />
      <form
        className="goal-form"
        noValidate
        aria-describedby={errors.form ? "goal-edit-error" : undefined}
        onSubmit={submitWith(save)}
      >
        <Field label={t("titleLabel")} error={errors.fields.title}>
          {(control) => (
            <input
              {...control}
              name="title"
              type="text"
              required
              maxLength={GOAL_TITLE_MAX}
              defaultValue={goal.title}
              dir="auto"
              autoComplete="off"
            />
          )}
        </Field>
        <Field label={t("descriptionLabel")} hint={t("descriptionHint")} error={errors.fields.description}>
          {(control) => (
            <textarea
              {...control}
              name="description"
              rows={5}
              maxLength={GOAL_DESCRIPTION_MAX}
              defaultValue={goal.description}
              dir="auto"
            />
          )}
        </Field>
        <div className="goal-form-row">
          <Field label={t("statusLabel")} error={errors.fields.status}>
            {(control) => (
              <select {...control} name="status" defaultValue={goal.status}>
                {GOAL_STATUSES.map((status) => (
                  <option key={status} value={status}>
                    {t(`status.${status}`)}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field label={t("targetDateLabel")} hint={t("targetDateHint")} error={errors.fields.targetDate}>
            {(control) => <input {...control} name="targetDate" type="date" defaultValue={goal.targetDate ?? ""} />}
          </Field>
          {derived ? (
            <div className="goal-field">
              <span className="goal-field-label">{t("progressInputLabel")}</span>
              <p className="goal-hint">{t("progressDerived", { progress: goal.progress })}</p>
            </div>
          ) : (
            <Field label={t("progressInputLabel")} error={errors.fields.progress}>
              {(control) => (
                <input
                  {...control}
                  name="progress"
                  type="number"
                  min={0}
                  max={100}
                  step={1}
                  inputMode="numeric"
                  defaultValue={goal.progress}
                />
              )}
            </Field>
          )}
        </div>
        <div className="goal-actions">
          <button className="button primary" type="submit" disabled={busy} aria-busy={busy}>
            {busy ? t("working") : t("save")}
          </button>
          {!confirming && (
            <button className="button danger" type="button" disabled={busy} onClick={() => setConfirming(true)}>
              {t("deleteGoal")}
            </button>
          )}
        </div>
      </form>
      {confirming && (
        <div className="goal-confirm" role="group" aria-labelledby="goal-delete-question">
          <p id="goal-delete-question">{t("deleteConfirm")}</p>
          <div className="goal-actions">
            <button className="button danger" type="button" disabled={busy} onClick={remove} autoFocus>
              {t("deleteYes")}
            </button>
            <button className="button" type="button" disabled={busy} onClick={() => setConfirming(false)}>
              {t("cancel")}
            </button>
          </div>
        </div>
      )}
    </section>
  );
}
