"use client";

import { useTranslations } from "next-intl";
import { useEffect } from "react";

/** How long "Completed … · Undo" stays: long enough to read it and reach the button. */
const SHOWN_MS = 10_000;

export interface UndoableCompletion {
  title: string;
  /** Takes the completion back; the notice closes. */
  undo(): void;
  /** Tells completions apart: the same title done twice restarts the timer. */
  key: number;
}

/**
 * A polite live region at the foot of the window saying which task was just done, with a button that takes it
 * back. It is always in the page (empty when there is nothing to say), so that screen readers announce what
 * enters it.
 */
export function UndoNotice({ completion, onClose }: { completion?: UndoableCompletion; onClose(): void }) {
  const t = useTranslations("TaskList");
  useEffect(() => {
    if (!completion) return;
    const timer = setTimeout(onClose, SHOWN_MS);
    return () => clearTimeout(timer);
  }, [completion, onClose]);

  return (
    <div className="tasks-undo" role="status" aria-live="polite">
      {completion && (
        <div className="tasks-undo-box">
          <span dir="auto">{t("completedNotice", { title: completion.title })}</span>
          <span aria-hidden="true">·</span>
          <button type="button" className="tasks-undo-button" onClick={completion.undo}>
            {t("undo")}
          </button>
        </div>
      )}
    </div>
  );
}
