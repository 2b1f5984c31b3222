"use client";

import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useEffect, useId, useRef, useState } from "react";
import { fieldErrors } from "@/components/auth/call-api";
import { api } from "@/lib/api-client/client";
import { Field, FormMessage } from "@/components/goals/goal-fields";
import { CIRCLES, type CircleKind } from "./circle-kind";
import { failureMessage } from "./failure";

type FieldName = "name" | "description";

interface Props {
  kind: CircleKind;
  locale: string;
  id: string;
  name: string;
  description: string;
  limits: { name: number; description: number };
}

/** Renaming a team or project and changing its description (owners and admins: `PATCH`). */
export function RenameCircle({ kind, id, name, description, limits }: Props) {
  const t = useTranslations("Teams");
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState<string>();
  const [errors, setErrors] = useState<{ form?: string; fields: Partial<Record<FieldName, string>> }>({ fields: {} });
  const messages: Record<FieldName, string> = {
    name: t("errorName", { max: limits.name }),
    description: t("errorDescription", { max: limits.description }),
  };

  async function save(data: FormData) {
    const newName = String(data.get("name") ?? "").trim();
    if (!newName) return setErrors({ form: t("errorSummary"), fields: { name: messages.name } });
    const answer = await api.PATCH(`${CIRCLES[kind].api}/{id}` as const, {
      params: { path: { id } },
      body: { name: newName, description: String(data.get("description") ?? "") },
    });
    if (answer.ok) {
      setStatus(t("saved"));
      return router.refresh();
    }
    if (answer.status === 400) {
      const fields = fieldErrors(answer.body, messages);
      return setErrors({ form: Object.keys(fields).length ? t("errorSummary") : t("errorGeneric"), fields });
    }
    setErrors({ form: failureMessage(t, answer.status), fields: {} });
  }

  return (
    <form
      className="goal-form"
      noValidate
      aria-label={t("renameTitle")}
      onSubmit={async (event) => {
        event.preventDefault();
        if (busy) return;
        const data = new FormData(event.currentTarget);
        setBusy(true);
        setStatus(undefined);
        setErrors({ fields: {} });
        await save(data).catch(() => setErrors({ form: t("errorGeneric"), fields: {} }));
        setBusy(false);
      }}
    >
      <FormMessage kind="error" message={errors.form} />
      <Field label={t(`${kind}.nameLabel`)} error={errors.fields.name}>
        {(control) => (
          <input
            {...control}
            name="name"
            type="text"
            required
            maxLength={limits.name}
            defaultValue={name}
            dir="auto"
            autoComplete="off"
          />
        )}
      </Field>
      <Field label={t("descriptionLabel")} error={errors.fields.description}>
        {(control) => (
          <textarea
            {...control}
            name="description"
            rows={3}
            maxLength={limits.description}
            defaultValue={description}
            dir="auto"
          />
        )}
      </Field>
      <div className="goal-actions">
        <button className="button primary" type="submit" disabled={busy} aria-busy={busy}>
          {busy ? t("working") : t("save")}
        </button>
      </div>
      <FormMessage kind="status" message={status} />
    </form>
  );
}

/**
 * Deleting a team or project (owners only), after a confirmation that names it. Focus moves into the
 * confirmation when it opens and back to the button when it is cancelled; once deleted, the list opens.
 */
export function DeleteCircle({ kind, locale, id, name }: Pick<Props, "kind" | "locale" | "id" | "name">) {
  const t = useTranslations("Teams");
  const router = useRouter();
  const htmlId = useId();
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const opener = useRef<HTMLButtonElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const wasConfirming = useRef(false);

  useEffect(() => {
    if (confirming) cancel.current?.focus();
    else if (wasConfirming.current) opener.current?.focus();
    wasConfirming.current = confirming;
  }, [confirming]);

  async function remove() {
    setBusy(true);
    const answer = await api.DELETE(`${CIRCLES[kind].api}/{id}` as const, { params: { path: { id } } }).catch(() => null);
    if (answer?.ok) return router.push(`/${locale}/${CIRCLES[kind].path}`);
    setBusy(false);
    setError(answer ? failureMessage(t, answer.status) : t("errorGeneric"));
  }

  return (
    <div className="circle-danger">
      <FormMessage kind="error" message={error} />
      {confirming ? (
        <div role="group" aria-labelledby={`${htmlId}-question`} className="circle-confirm">
          <p id={`${htmlId}-question`} dir="auto">
            {t(`${kind}.deleteQuestion`, { name })}
          </p>
          <div className="circle-buttons">
            <button type="button" className="button danger" disabled={busy} aria-busy={busy} onClick={() => void remove()}>
              {t(`${kind}.deleteConfirm`)}
            </button>
            <button ref={cancel} type="button" className="button" disabled={busy} onClick={() => setConfirming(false)}>
              {t("cancel")}
            </button>
          </div>
        </div>
      ) : (
        <button ref={opener} type="button" className="button danger" onClick={() => setConfirming(true)}>
          {t(`${kind}.delete`)}
        </button>
      )}
    </div>
  );
}
