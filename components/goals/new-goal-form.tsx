"use client";

import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { fieldErrors } from "@/components/auth/call-api";
import { api } from "@/lib/api-client/client";
import { GOAL_DESCRIPTION_MAX, GOAL_TITLE_MAX } from "@/lib/goals/vocabulary";
import { failureMessage, Field, FormMessage } from "./goal-fields";

type FieldName = "title" | "description" | "targetDate";

/** Creates a goal (`POST /goals`) and opens its page. */
export function NewGoalForm({ locale }: { locale: string }) {
  const t = useTranslations("Goals");
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<{ form?: string; fields: Partial<Record<FieldName, string>> }>({ fields: {} });
  const messages: Record<FieldName, string> = {
    title: t("errorTitle", { max: GOAL_TITLE_MAX }),
    description: t("errorDescription", { max: GOAL_DESCRIPTION_MAX }),
    targetDate: t("errorTargetDate"),
  };

  /** True once the new goal's page is opening (the form stays busy until it has). */
  async function create(data: FormData): Promise<boolean> {
    const title = String(data.get("title") ?? "").trim();
    if (!title) {
      setErrors({ form: t("errorSummary"), fields: { title: messages.title } });
      return false;
    }
    const targetDate = String(data.get("targetDate") ?? "");
    const answer = await api.POST("/api/v1/goals", {
      body: { title, description: String(data.get("description") ?? ""), ...(targetDate ? { targetDate } : {}) },
    });
    if (answer.ok) {
      router.push(`/${locale}/goals/${answer.body.id}`);
      return true;
    }
    if (answer.status === 400) {
      const fields = fieldErrors(answer.body, messages);
      setErrors({ form: Object.keys(fields).length ? t("errorSummary") : t("errorGeneric"), fields });
    } else {
      setErrors({ form: answer.status === 409 ? t("errorLimit") : failureMessage(t, answer.status), fields: {} });
    }
    return false;
  }

  return (
    <form
      className="goal-form"
      noValidate
      aria-describedby={errors.form ? "new-goal-error" : undefined}
      onSubmit={async (event) => {
        event.preventDefault();
        if (busy) return;
        const data = new FormData(event.currentTarget);
        setBusy(true);
        setErrors({ fields: {} });
        const opening = await create(data).catch(() => {
          setErrors({ form: t("errorGeneric"), fields: {} });
          return false;
        });
        if (!opening) setBusy(false);
      }}
    >
      <FormMessage id="new-goal-error" kind="error" message={errors.form} />
      <Field label={t("titleLabel")} hint={t("titleHint")} error={errors.fields.title}>
        {(control) => (
          <input {...control} name="title" type="text" required maxLength={GOAL_TITLE_MAX} dir="auto" autoComplete="off" />
        )}
      </Field>
      <Field label={t("descriptionLabel")} hint={t("descriptionHint")} error={errors.fields.description}>
        {(control) => <textarea {...control} name="description" rows={4} maxLength={GOAL_DESCRIPTION_MAX} dir="auto" />}
      </Field>
      <Field label={t("targetDateLabel")} hint={t("targetDateHint")} error={errors.fields.targetDate}>
        {(control) => <input {...control} name="targetDate" type="date" />}
      </Field>
      <div className="goal-actions">
        <button className="button primary" type="submit" disabled={busy} aria-busy={busy}>
          {busy ? t("working") : t("create")}
        </button>
      </div>
    </form>
  );
}
