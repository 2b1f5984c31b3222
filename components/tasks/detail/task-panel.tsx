"use client";

import { useRouter } from "next/navigation";
import { createContext, useCallback, useContext, useEffect, useRef } from "react";
import { CloseIcon } from "./detail-icons";

/*
 * The task's detail as a side panel over the task list or the board (app/[locale]/@panel/(.)tasks/[id]): a click
 * on a row or a card opens it, with the task's own address (/{locale}/tasks/{id}) in the bar, while a reload of
 * that address shows the task page. It closes with its close button, Escape or the browser's Back, all of which go
 * one step back in history (router.back()), so the address is the list's or the board's again.
 *
 * For assistive technology it is a non-modal dialog: role="dialog" named by the task's heading, without
 * aria-modal. WAI-ARIA's aria-modal="true" promises that everything outside the dialog is inert, which is not so
 * here: the list or board beside it stays in view and in use (another row opens in the panel, a row completes),
 * and the APG's dialog pattern allows a non-modal dialog for exactly that. A complementary landmark would not
 * fit either: the panel is not supporting content of the page but a window opened over it on purpose, which
 * takes the focus when it opens, gives it back to the task's row or card when it closes, and closes on Escape.
 */

const PanelClose = createContext<(() => void) | null>(null);

/** How the side panel showing this component closes, or null when it is shown on a page of its own. */
export function useTaskPanelClose(): (() => void) | null {
  return useContext(PanelClose);
}

interface Props {
  taskId: string;
  /** The task's page: the panel links to it ("Open as a page"), a full navigation that shows the task alone. */
  pageHref: string;
  labels: { close: string; openPage: string };
  /** The id of the panel's heading (the task's title), or, without one, the panel's name. */
  labelledBy?: string;
  label?: string;
  children: React.ReactNode;
}

export function TaskPanel({ taskId, pageHref, labels, labelledBy, label, children }: Props) {
  const router = useRouter();
  const panel = useRef<HTMLDivElement>(null);
  const closing = useRef(false);

  const close = useCallback(() => {
    // Twice Escape, or Escape then the button, must not go two steps back.
    if (closing.current) return;
    closing.current = true;
    router.back();
  }, [router]);

  // Open: the focus moves into the panel (which the screen reader announces by the task's title). Closed: it
  // goes back to the task's row or card (found again: the list may have rendered it anew meanwhile), or else to
  // whatever opened the panel; but only when the panel held it, not when the user went elsewhere.
  useEffect(() => {
    const active = document.activeElement;
    const opener = active instanceof HTMLElement && active !== document.body ? active : null;
    panel.current?.focus();
    return () => {
      if (document.activeElement && document.activeElement !== document.body) return;
      const row = document.querySelector<HTMLElement>(`main a[href$="/tasks/${taskId}"]`);
      (row ?? (opener?.isConnected ? opener : null))?.focus();
    };
  }, [taskId]);

  // Escape closes the panel, wherever the focus is, unless something else took the key first (a field putting its
  // saved value back, another dialog) or the user is typing in a field of the page behind.
  useEffect(() => {
    function onKeyDown(event: KeyboardEvent) {
      if (event.key !== "Escape" || event.defaultPrevented) return;
      if (document.querySelector("dialog[open]")) return;
      const target = event.target instanceof Element ? event.target : null;
      if (target && !panel.current?.contains(target) && target.closest("input, textarea, select, [contenteditable]")) return;
      event.preventDefault();
      close();
    }
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, [close]);

  return (
    <div
      ref={panel}
      className="task-panel"
      role="dialog"
      aria-labelledby={labelledBy}
      aria-label={labelledBy ? undefined : label}
      tabIndex={-1}
    >
      <div className="task-panel-bar">
        <a className="task-panel-page" href={pageHref}>
          {labels.openPage}
        </a>
        <button className="button task-panel-close" type="button" onClick={close} aria-label={labels.close} title={labels.close}>
          <CloseIcon size={20} />
        </button>
      </div>
      <PanelClose.Provider value={close}>{children}</PanelClose.Provider>
    </div>
  );
}
