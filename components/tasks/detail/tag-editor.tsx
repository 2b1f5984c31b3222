"use client";

import { useTranslations } from "next-intl";
import { useId, useRef, useState } from "react";
import { CloseIcon } from "./detail-icons";

/*
 * A task's tags as chips: each with a button that removes it, and a field that adds one (Enter or the Add
 * button). Every change saves the whole list at once (`tags` of PATCH /tasks/{id}).
 */

const TAG_MAX = 50;

interface TagEditorProps {
  tags: readonly string[];
  /** Saves the new list; answers whether it was taken. */
  onSave(tags: string[]): Promise<boolean>;
  error?: string;
}

export function TagEditor({ tags, onSave, error }: TagEditorProps) {
  const t = useTranslations("TaskDetail");
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [draft, setDraft] = useState("");
  const [localError, setLocalError] = useState<string>();
  /** One change at a time: each sends the whole list, so a second one must start from the first one's result. */
  const [busy, setBusy] = useState(false);
  const shownError = localError ?? error;

  async function save(next: string[]): Promise<boolean> {
    setBusy(true);
    const saved = await onSave(next);
    setBusy(false);
    return saved;
  }

  async function add() {
    const tag = draft.trim();
    if (!tag || busy) return;
    if (tag.includes(",")) return setLocalError(t("tagComma"));
    setLocalError(undefined);
    if (tags.includes(tag)) return setDraft("");
    // Only the tag that was added is cleared: the user may have typed the next one meanwhile.
    if (await save([...tags, tag])) setDraft((current) => (current.trim() === tag ? "" : current));
  }

  async function remove(tag: string) {
    if (busy) return;
    setLocalError(undefined);
    if (await save(tags.filter((other) => other !== tag))) input.current?.focus();
  }

  return (
    <div className="auth-field" role="group" aria-labelledby={`${id}-label`}>
      <span id={`${id}-label`} className="task-field-label">
        {t("tagsLabel")}
      </span>
      {tags.length > 0 ? (
        <ul className="task-tags" aria-label={t("tagsListLabel")}>
          {tags.map((tag) => (
            <li key={tag} className="task-tag">
              <span dir="auto">{tag}</span>
              <button
                type="button"
                className="task-tag-remove"
                disabled={busy}
                aria-label={t("removeTag", { tag })}
                onClick={() => void remove(tag)}
              >
                <CloseIcon size={14} />
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="auth-hint">{t("noTags")}</p>
      )}
      <div className="task-input-row">
        <label htmlFor={`${id}-new`} className="visually-hidden">
          {t("newTagLabel")}
        </label>
        <input
          ref={input}
          id={`${id}-new`}
          value={draft}
          maxLength={TAG_MAX}
          dir="auto"
          placeholder={t("newTagPlaceholder")}
          aria-invalid={shownError ? true : undefined}
          aria-describedby={shownError ? `${id}-error` : undefined}
          onChange={(event) => setDraft(event.currentTarget.value)}
          onKeyDown={(event) => {
            if (event.key === "Enter") {
              event.preventDefault();
              void add();
            }
          }}
        />
        <button type="button" className="button" disabled={busy} aria-busy={busy} onClick={() => void add()}>
          {t("addTag")}
        </button>
      </div>
      {shownError && (
        <p id={`${id}-error`} className="auth-field-error" role="alert">
          {shownError}
        </p>
      )}
    </div>
  );
}
