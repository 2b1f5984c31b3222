"use client";

import { useTranslations } from "next-intl";
import { useEffect, useRef } from "react";
import { QUICK_ADD_INPUT_ID } from "@/components/tasks/list/quick-add-id";
import { SHORTCUT_LIST, shortcutOf, type ShortcutAction } from "@/lib/shortcuts/shortcut-keys";
import { moveSelection, openSelected, toggleSelected } from "./task-rows";

/** The page's own search field (the task list's). */
const SEARCH_FIELD = "main input[type='search']";

/** Focuses an element when the page has it (unfolding the section it is folded in: the filters on a phone); whether it did. */
function focus(element: HTMLElement | null): boolean {
  const folded = element?.closest("details:not([open])");
  if (folded instanceof HTMLDetailsElement) folded.open = true;
  element?.focus();
  return element !== null;
}

/** Does what a shortcut asks; whether the page had what it acts on. */
function run(action: Exclude<ShortcutAction, "help">): boolean {
  if (action === "quickAdd") return focus(document.getElementById(QUICK_ADD_INPUT_ID));
  if (action === "search") return focus(document.querySelector<HTMLElement>(SEARCH_FIELD));
  if (action === "next") return moveSelection(1);
  if (action === "previous") return moveSelection(-1);
  if (action === "toggle") return toggleSelected();
  return openSelected();
}

/**
 * The signed-in pages' single-key shortcuts (lib/shortcuts/shortcut-keys.ts says which key does what): q quick add, / search,
 * j and k move through the task list, x completes or reopens, e or Enter opens, ? shows them all in a dialog,
 * together with the command palette's Ctrl+K. On a page without the thing it acts on, a key is left to the
 * browser.
 */
export function KeyboardShortcuts() {
  const t = useTranslations("Shortcuts");
  const help = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    function onKeyDown(event: KeyboardEvent) {
      if (event.defaultPrevented || help.current?.open) return;
      const { key, ctrlKey, altKey, metaKey, shiftKey, target } = event;
      const action = shortcutOf({ key, ctrlKey, altKey, metaKey, shiftKey, target: target instanceof Element ? target : null });
      if (!action) return;
      if (action === "help") help.current?.showModal();
      else if (!run(action)) return;
      event.preventDefault(); // the key is not typed into the field it focused
    }
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, []);

  return (
    <dialog ref={help} className="shell-dialog shortcuts-help" aria-labelledby="shortcuts-help-title">
      <h2 id="shortcuts-help-title">{t("title")}</h2>
      <dl>
        {SHORTCUT_LIST.map(({ action, keys }) => (
          <div key={action}>
            <dt>
              {keys.map((key, index) => (
                <span key={key}>
                  {index > 0 && ` ${t("or")} `}
                  <kbd>{key === "Enter" ? t("enterKey") : key}</kbd>
                </span>
              ))}
            </dt>
            <dd>{t(action)}</dd>
          </div>
        ))}
        <div>
          <dt>
            <kbd>Ctrl</kbd>+<kbd>K</kbd> {t("or")} <kbd>⌘</kbd>+<kbd>K</kbd>
          </dt>
          <dd>{t("palette")}</dd>
        </div>
      </dl>
      <form method="dialog">
        <button className="button primary" type="submit">
          {t("close")}
        </button>
      </form>
    </dialog>
  );
}
