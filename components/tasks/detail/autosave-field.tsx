"use client";

import { useId, useState } from "react";

/*
 * A labelled field of the task page that saves itself when the user leaves it (or presses Enter in a one-line
 * field; Escape puts the saved value back). While the user edits, what they type is a draft that nothing else
 * overwrites: a change that arrives live from someone else shows once the draft is saved or dropped.
 */

interface AutosaveFieldProps {
  label: string;
  /** The saved value, as the field shows it. */
  value: string;
  /** Saves a new value; answers whether it was taken (if not, the draft stays for the user to correct). */
  onSave(value: string): Promise<boolean>;
  kind?: "text" | "multiline" | "datetime-local" | "date";
  error?: string;
  hint?: string;
  maxLength?: number;
  /** Extra content right after the input (a "remove" button). */
  children?: React.ReactNode;
  className?: string;
}

export function AutosaveField({
  label,
  value,
  onSave,
  kind = "text",
  error,
  hint,
  maxLength,
  children,
  className,
}: AutosaveFieldProps) {
  const id = useId();
  const [draft, setDraft] = useState<string | null>(null);
  const shown = draft ?? value;

  async function commit() {
    if (draft === null) return;
    if (draft === value) return setDraft(null);
    const saved = draft;
    // Only the text that was saved is dropped: anything typed meanwhile stays a draft.
    if (await onSave(saved)) setDraft((current) => (current === saved ? null : current));
  }

  const common = {
    id,
    value: shown,
    maxLength,
    "aria-invalid": error ? true : undefined,
    "aria-describedby": [hint && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(" ") || undefined,
    onBlur: () => void commit(),
    onKeyDown: (event: React.KeyboardEvent) => {
      if (event.key === "Escape" && draft !== null) {
        event.preventDefault();
        setDraft(null);
      } else if (event.key === "Enter" && kind !== "multiline") {
        event.preventDefault();
        void commit();
      }
    },
  };

  return (
    <div className={`auth-field${className ? ` ${className}` : ""}`}>
      <label htmlFor={id}>{label}</label>
      {kind === "multiline" ? (
        <textarea {...common} rows={5} dir="auto" onChange={(event) => setDraft(event.currentTarget.value)} />
      ) : (
        <input
          {...common}
          type={kind}
          dir={kind === "text" ? "auto" : "ltr"}
          onChange={(event) => setDraft(event.currentTarget.value)}
        />
      )}
      {children}
      {hint && (
        <p id={`${id}-hint`} className="auth-hint">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="auth-field-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
