"use client";

import { useEffect, useId, useRef, useState, type ReactNode } from "react";

/*
 * A value the API shows only once (a webhook's signing secret, a calendar feed's address): a heading that takes
 * focus when it appears, so keyboard and screen reader users land on it; a warning; a read-only field to select it
 * from; a copy button whose outcome is announced; and a button to put it away. The callers give the words.
 */

export interface ShownOnceLabels {
  title: string;
  lead: string;
  field: string;
  copy: string;
  copied: string;
  copyFailed: string;
  done: string;
}

export function ShownOnce({
  value,
  labels,
  children,
  onDone,
}: {
  value: string;
  labels: ShownOnceLabels;
  /** More to say under the warning (what the value is for). */
  children?: ReactNode;
  onDone: () => void;
}) {
  const id = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const [copy, setCopy] = useState<"idle" | "copied" | "failed">("idle");

  useEffect(() => heading.current?.focus(), []);

  async function copyValue() {
    try {
      await navigator.clipboard.writeText(value);
      setCopy("copied");
    } catch {
      setCopy("failed");
    }
  }

  return (
    <section className="webhook-secret" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} ref={heading} tabIndex={-1}>
        {labels.title}
      </h3>
      <p className="settings-warning">{labels.lead}</p>
      {children}
      <div className="auth-field">
        <label htmlFor={`${id}-value`}>{labels.field}</label>
        <input
          id={`${id}-value`}
          className="webhook-secret-value"
          type="text"
          readOnly
          value={value}
          dir="ltr"
          spellCheck={false}
          onFocus={(event) => event.currentTarget.select()}
        />
      </div>
      <p className={copy === "failed" ? "auth-form-error" : "auth-status"} role="status">
        {copy === "copied" ? labels.copied : copy === "failed" ? labels.copyFailed : ""}
      </p>
      <div className="settings-actions">
        <button className="button primary" type="button" onClick={() => void copyValue()}>
          {labels.copy}
        </button>
        <button className="button" type="button" onClick={onDone}>
          {labels.done}
        </button>
      </div>
    </section>
  );
}
