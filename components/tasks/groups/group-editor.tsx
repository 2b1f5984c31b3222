"use client";

import { useTranslations } from "next-intl";
import { useEffect, useId, useRef, useState } from "react";
import { api } from "@/lib/api-client/client";
import { LOCALE_NAMES, LOCALES, languageTag, type Locale } from "@/lib/i18n/locales";
import { failureMessage, type ManagedGroup, type Outcome } from "./managed-group";

interface Props {
  locale: Locale;
  group: ManagedGroup;
  /** Every other group the user can use (their own, archived too, and those shared with their family). */
  others: readonly ManagedGroup[];
  /** Runs a change: `busy` while it is on its way, then its message, and the page's data loaded again on success. */
  run(change: () => Promise<Outcome>): Promise<void>;
  busy: boolean;
  /** After the group is deleted. */
  onDeleted(): void;
}

const DELETE_TASKS = "delete";

/**
 * One of the user's own groups, opened in the manager: its name in each of the five languages (an empty field
 * removes that language's name; the API names the group in English there), archive or restore, and delete with
 * a choice of where its tasks go (another group, archived ones too, or deleted with it), confirmed first.
 */
export function GroupEditor({ locale, group, others, run, busy, onDeleted }: Props) {
  const t = useTranslations("TaskGroups");
  const id = useId();
  // The page's language first: the name people most likely came to change.
  const languages = [locale, ...LOCALES.filter((language) => language !== locale)];
  const [namesError, setNamesError] = useState("");
  const firstActive = others.find((other) => !other.archived) ?? others[0];
  const [target, setTarget] = useState(firstActive?.id ?? DELETE_TASKS);
  const [confirming, setConfirming] = useState(false);
  const confirmButton = useRef<HTMLButtonElement>(null);
  const deleteButton = useRef<HTMLButtonElement>(null);
  const wasConfirming = useRef(false);

  useEffect(() => {
    if (confirming) confirmButton.current?.focus();
    else if (wasConfirming.current) deleteButton.current?.focus();
    wasConfirming.current = confirming;
  }, [confirming]);

  function saveNames(data: FormData) {
    const names: Partial<Record<Locale, string | null>> = {};
    for (const language of LOCALES) {
      const value = String(data.get(language) ?? "").trim();
      if (value) names[language] = value;
      else if (group.names[language] !== undefined) names[language] = null;
    }
    // The fields hold every name the group has: all of them empty would leave it nameless.
    if (!Object.values(names).some((name) => typeof name === "string")) return setNamesError(t("errorNames"));
    setNamesError("");
    return run(async () => {
      const answer = await api
        .PATCH("/api/v1/groups/{id}", { params: { path: { id: group.id }, query: { lang: locale } }, body: { names } })
        .catch(() => null);
      if (answer?.ok) return { status: t("namesSaved") };
      if (answer?.status === 400) {
        setNamesError(t("errorNames"));
        return { error: t("errorNames") };
      }
      return { error: failureMessage(t, answer) };
    });
  }

  const setArchived = (archived: boolean) =>
    run(async () => {
      const answer = await api
        .PATCH("/api/v1/groups/{id}", { params: { path: { id: group.id }, query: { lang: locale } }, body: { archived } })
        .catch(() => null);
      if (!answer?.ok) return { error: failureMessage(t, answer) };
      return { status: t(archived ? "archivedDone" : "restoredDone", { name: group.name }) };
    });

  const targetGroup = others.find((other) => other.id === target);
  const remove = () =>
    run(async () => {
      const query = targetGroup ? { moveTo: targetGroup.id } : { deleteTasks: true };
      const answer = await api.DELETE("/api/v1/groups/{id}", { params: { path: { id: group.id }, query } }).catch(() => null);
      setConfirming(false);
      if (!answer?.ok) return { error: failureMessage(t, answer) };
      onDeleted();
      return { status: t("deleted", { name: group.name }) };
    });

  return (
    <div className="group-editor">
      <form
        noValidate
        aria-label={t("namesLegend", { name: group.name })}
        onSubmit={(event) => {
          event.preventDefault();
          void saveNames(new FormData(event.currentTarget));
        }}
      >
        <fieldset aria-describedby={`${id}-names-hint${namesError ? ` ${id}-names-error` : ""}`}>
          <legend>{t("namesLegend", { name: group.name })}</legend>
          <p id={`${id}-names-hint`} className="group-hint">
            {t("namesHint")}
          </p>
          {languages.map((language) => (
            <div className="group-field" key={language}>
              <label htmlFor={`${id}-${language}`} lang={languageTag(language)}>
                {LOCALE_NAMES[language]}
              </label>
              <input
                id={`${id}-${language}`}
                name={language}
                type="text"
                lang={languageTag(language)}
                dir="auto"
                maxLength={100}
                autoComplete="off"
                defaultValue={group.names[language] ?? ""}
                aria-invalid={namesError ? true : undefined}
              />
            </div>
          ))}
          {namesError && (
            <p id={`${id}-names-error`} className="group-error">
              {namesError}
            </p>
          )}
        </fieldset>
        <button className="button primary group-button" type="submit" disabled={busy}>
          {t("saveNames")}
        </button>
      </form>

      <button className="button group-button" type="button" disabled={busy} onClick={() => void setArchived(!group.archived)}>
        {group.archived ? t("restore") : t("archive")}
        <span className="visually-hidden"> {group.name}</span>
      </button>

      <div className="group-delete" role="group" aria-labelledby={`${id}-delete`}>
        <h3 id={`${id}-delete`}>{t("deleteHeading")}</h3>
        <label htmlFor={`${id}-target`}>{t("tasksGo")}</label>
        <select
          id={`${id}-target`}
          value={target}
          disabled={busy || confirming}
          onChange={(event) => setTarget(event.target.value)}
        >
          {others.map((other) => (
            <option key={other.id} value={other.id}>
              {t(other.archived ? "moveToArchived" : "moveTo", { name: other.name })}
            </option>
          ))}
          <option value={DELETE_TASKS}>{t("deleteTasks")}</option>
        </select>
        {confirming ? (
          <div className="group-confirm">
            <p dir="auto">
              {targetGroup
                ? t("deleteQuestion", { name: group.name, target: targetGroup.name })
                : t("deleteQuestionTasks", { name: group.name })}
            </p>
            <div className="group-buttons">
              <button
                ref={confirmButton}
                className="button danger group-button"
                type="button"
                disabled={busy}
                onClick={() => void remove()}
              >
                {t("deleteConfirm")}
              </button>
              <button className="button group-button" type="button" disabled={busy} onClick={() => setConfirming(false)}>
                {t("cancel")}
              </button>
            </div>
          </div>
        ) : (
          <button
            ref={deleteButton}
            className="button group-button"
            type="button"
            disabled={busy}
            onClick={() => setConfirming(true)}
          >
            {t("deleteButton")}
            <span className="visually-hidden"> {group.name}</span>
          </button>
        )}
      </div>
    </div>
  );
}
