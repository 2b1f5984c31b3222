"use client";

import { useTranslations } from "next-intl";
import { useEffect, useRef } from "react";
import { QUICK_ADD_INPUT_ID } from "@/components/tasks/list/quick-add";
import { SHORTCUT_LIST, shortcutOf, type ShortcutAction } from "@/lib/shortcuts/shortcut-keys";
import { moveSelection, openSelected, toggleSelected } from "./task-rows";

/** The page's own search field (the task list's). */
const SEARCH_FIELD = "main input[type='search']";

function run(action: Exclude<ShortcutAction, "help">) {
  if (action === "quickAdd") document.getElementById(QUICK_ADD_INPUT_ID)?.focus();
  else if (action === "search") document.querySelector<HTMLInputElement>(SEARCH_FIELD)?.focus();
  else if (action === "next") moveSelection(1);
  else if (action === "previous") moveSelection(-1);
  else if (action === "toggle") toggleSelected();
  else openSelected();
}

/**
 * The signed-in pages' single-key shortcuts (shortcut-keys.ts says which key does what): q quick add, / search,
 * j and k move through the task list, x completes or reopens, e or Enter opens, ? shows them all in a dialog,
 * together with the command palette's Ctrl+K. A key does nothing on a page without the thing it acts on.
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
      event.preventDefault(); // the key is not typed into the field it focuses
      if (action === "help") help.current?.showModal();
      else run(action);
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
