"use client";

import { useTranslations } from "next-intl";
import { useEffect, useId, useState } from "react";
import { invalidFields } from "@/components/auth/call-api";
import type { WriteResult } from "./use-task-list";

export const QUICK_ADD_INPUT_ID = "quick-add-title";
const TITLE_MAX = 500;

type Translate = ReturnType<typeof useTranslations<"TaskList">>;

/** What went wrong with a write, in the user's language (the API's own words are never shown). */
export function writeFailure(t: Translate, result: Extract<WriteResult, { ok: false }>): string {
  const status = result.answer?.status;
  if (status === undefined) return t("errorOffline");
  if (status === 401) return t("errorSignedOut");
  if (status === 403) return t("errorForbidden");
  if (status === 429) return t("errorRateLimited");
  return t("errorGeneric");
}

/**
 * "Add a task": one field at the top of the list; Enter adds the title to the group being shown, else to the
 * user's first group. The field empties at once and the task shows as a draft; a failure puts the title back
 * and says why next to the field. Disabled until hydrated, so that nothing typed before is lost to a native
 * form submission.
 */
export function QuickAdd({ groupName, onAdd }: { groupName: string; onAdd(title: string): Promise<WriteResult> }) {
  const t = useTranslations("TaskList");
  const id = useId();
  const [hydrated, setHydrated] = useState(false);
  const [title, setTitle] = useState("");
  const [error, setError] = useState<string>();
  const [added, setAdded] = useState<string>();
  useEffect(() => setHydrated(true), []);

  async function add(text: string) {
    setTitle("");
    setError(undefined);
    setAdded(undefined);
    const result = await onAdd(text);
    if (result.ok) return setAdded(t("quickAddDone", { title: text }));
    setTitle((current) => current || text);
    const titleRefused = result.answer?.status === 400 && invalidFields(result.answer.body).includes("title");
    setError(titleRefused ? t("errorTitle") : writeFailure(t, result));
  }

  return (
    <form
      className="quick-add"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        const text = title.trim();
        if (!text) return setError(t("errorTitleEmpty"));
        void add(text);
      }}
    >
      <label htmlFor={QUICK_ADD_INPUT_ID}>{t("quickAddLabel")}</label>
      <div className="quick-add-row">
        <input
          id={QUICK_ADD_INPUT_ID}
          name="title"
          type="text"
          autoComplete="off"
          dir="auto"
          maxLength={TITLE_MAX}
          placeholder={t("quickAddPlaceholder")}
          value={title}
          disabled={!hydrated}
          onChange={(event) => {
            setTitle(event.currentTarget.value);
            if (error) setError(undefined);
          }}
          aria-invalid={error ? true : undefined}
          aria-describedby={`${id}-hint${error ? ` ${id}-error` : ""}`}
        />
        <button className="button primary" type="submit" disabled={!hydrated}>
          {t("quickAddButton")}
        </button>
      </div>
      <p id={`${id}-hint`} className="quick-add-hint">
        {t("quickAddHint", { group: groupName })}
      </p>
      <p id={`${id}-error`} className="tasks-error" role="alert">
        {error}
      </p>
      <p className="visually-hidden" role="status">
        {added}
      </p>
    </form>
  );
}
