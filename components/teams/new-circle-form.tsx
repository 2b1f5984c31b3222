"use client";

import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { fieldErrors } from "@/components/auth/call-api";
import { api } from "@/lib/api-client/client";
import { Field, FormMessage } from "@/components/goals/goal-fields";
import { CIRCLES, type CircleKind } from "./circle-kind";
import { failureMessage } from "./failure";

type FieldName = "name" | "description";

/** Creates a team or a project (`POST /user-groups`, `POST /projects`) and opens its page; its creator owns it. */
export function NewCircleForm({
  kind,
  locale,
  limits,
}: {
  kind: CircleKind;
  locale: string;
  limits: { name: number; description: number };
}) {
  const t = useTranslations("Teams");
  const config = CIRCLES[kind];
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<{ form?: string; fields: Partial<Record<FieldName, string>> }>({ fields: {} });
  const messages: Record<FieldName, string> = {
    name: t("errorName", { max: limits.name }),
    description: t("errorDescription", { max: limits.description }),
  };

  async function create(data: FormData): Promise<boolean> {
    const name = String(data.get("name") ?? "").trim();
    if (!name) {
      setErrors({ form: t("errorSummary"), fields: { name: messages.name } });
      return false;
    }
    const answer = await api.POST(config.api, { body: { name, description: String(data.get("description") ?? "") } });
    if (answer.ok) {
      router.push(`/${locale}/${config.path}/${answer.body.id}`);
      return true;
    }
    if (answer.status === 400) {
      const fields = fieldErrors(answer.body, messages);
      setErrors({ form: Object.keys(fields).length ? t("errorSummary") : t("errorGeneric"), fields });
    } else setErrors({ form: failureMessage(t, answer.status), fields: {} });
    return false;
  }

  return (
    <form
      className="goal-form"
      noValidate
      aria-describedby={errors.form ? `new-${kind}-error` : undefined}
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
      <FormMessage id={`new-${kind}-error`} kind="error" message={errors.form} />
      <Field label={t(`${kind}.nameLabel`)} error={errors.fields.name}>
        {(control) => (
          <input {...control} name="name" type="text" required maxLength={limits.name} dir="auto" autoComplete="off" />
        )}
      </Field>
      <Field label={t("descriptionLabel")} hint={t("descriptionHint")} error={errors.fields.description}>
        {(control) => <textarea {...control} name="description" rows={3} maxLength={limits.description} dir="auto" />}
      </Field>
      <div className="goal-actions">
        <button className="button primary" type="submit" disabled={busy} aria-busy={busy}>
          {busy ? t("working") : t(`${kind}.create`)}
        </button>
      </div>
    </form>
  );
}
