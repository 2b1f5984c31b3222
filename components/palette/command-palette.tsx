"use client";

import { useLocale, useTranslations } from "next-intl";
import { useEffect, useId, useMemo, useRef, useState } from "react";
import { focusWhenShown } from "@/components/shortcuts/focus-when-shown";
import { QUICK_ADD_INPUT_ID } from "@/components/tasks/list/quick-add-id";
import type { NavItem } from "@/components/ui/main-nav";
import { SearchIcon } from "@/components/ui/shell-icons";
import type { ThemeChoice } from "@/components/ui/theme";
import { applyTheme } from "@/components/ui/theme-choice";
import { usePathname, useRouter } from "@/i18n/navigation";
import { filterItems, type PaletteItem } from "@/lib/palette/palette-items";

interface Command extends PaletteItem {
  run(): void;
}

const THEME_CHOICES: readonly ThemeChoice[] = ["light", "dark", "system"];

/** Whether a key press is Ctrl+K or ⌘K, which opens (and closes) the palette from anywhere. */
function isPaletteKey(event: KeyboardEvent) {
  return (event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === "k";
}

/**
 * The command palette: Ctrl+K, ⌘K or the header's button open a dialog where typing narrows the user's sections
 * (only those the header shows them, `sections`) and a few actions (a new task in the list with quick add focused,
 * the board, the themes) to pick with the arrow keys and Enter or a click. The field and the list follow the ARIA
 * combobox pattern: the focus stays in the field, the highlighted option is its aria-activedescendant. Escape,
 * a click outside or a chosen command close it.
 */
export function CommandPalette({ sections }: { sections: readonly NavItem[] }) {
  const t = useTranslations("Palette");
  const locale = useLocale();
  const pathname = usePathname();
  const router = useRouter();
  const dialog = useRef<HTMLDialogElement>(null);
  const [query, setQuery] = useState("");
  const [active, setActive] = useState(0);
  const listId = useId();

  const commands = useMemo<Command[]>(
    () => [
      ...sections.map(({ href, label }) => ({ id: href, label, run: () => router.push(href) })),
      {
        id: "new-task",
        label: t("newTask"),
        run: () => {
          if (pathname !== "/tasks") router.push("/tasks");
          focusWhenShown(QUICK_ADD_INPUT_ID);
        },
      },
      { id: "open-board", label: t("openBoard"), run: () => router.push("/board") },
      ...THEME_CHOICES.map((choice) => ({ id: `theme-${choice}`, label: t(`theme.${choice}`), run: () => applyTheme(choice) })),
    ],
    [sections, pathname, router, t],
  );
  const shown = filterItems(commands, query, locale);
  const highlighted = Math.min(active, shown.length - 1);
  const optionId = (index: number) => `${listId}-${index}`;

  function open() {
    setQuery("");
    setActive(0);
    dialog.current?.showModal();
  }

  function choose(command: Command | undefined) {
    if (!command) return;
    dialog.current?.close();
    command.run();
  }

  useEffect(() => {
    function onKeyDown(event: KeyboardEvent) {
      if (!isPaletteKey(event)) return;
      event.preventDefault();
      if (dialog.current?.open) dialog.current.close();
      else open();
    }
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, []);

  function onFieldKeyDown(event: React.KeyboardEvent<HTMLInputElement>) {
    const last = shown.length - 1;
    if (event.key === "ArrowDown") setActive(highlighted >= last ? 0 : highlighted + 1);
    else if (event.key === "ArrowUp") setActive(highlighted <= 0 ? last : highlighted - 1);
    else if (event.key === "Enter") choose(shown[highlighted]);
    else return;
    event.preventDefault();
  }

  return (
    <>
      <button
        type="button"
        className="header-round-button palette-button"
        aria-haspopup="dialog"
        aria-keyshortcuts="Control+K Meta+K"
        title={t("buttonTitle")}
        onClick={open}
      >
        <SearchIcon size={18} />
        <span className="header-label">{t("button")}</span>
      </button>
      <dialog
        ref={dialog}
        className="shell-dialog palette"
        aria-label={t("title")}
        // A click on the backdrop lands on the dialog itself; clicks inside land on its content.
        onClick={(event) => event.target === event.currentTarget && dialog.current?.close()}
      >
        <div className="palette-content">
          <input
            className="palette-field"
            type="text"
            role="combobox"
            aria-label={t("fieldLabel")}
            aria-expanded={shown.length > 0}
            aria-controls={listId}
            aria-autocomplete="list"
            aria-activedescendant={shown.length > 0 ? optionId(highlighted) : undefined}
            placeholder={t("placeholder")}
            autoComplete="off"
            spellCheck={false}
            value={query}
            onChange={(event) => {
              setQuery(event.currentTarget.value);
              setActive(0);
            }}
            onKeyDown={onFieldKeyDown}
          />
          <ul id={listId} role="listbox" aria-label={t("listLabel")} className="palette-list">
            {shown.map((command, index) => (
              <li
                key={command.id}
                id={optionId(index)}
                role="option"
                aria-selected={index === highlighted}
                onClick={() => choose(command)}
                onMouseMove={() => setActive(index)}
              >
                {command.label}
              </li>
            ))}
          </ul>
          {shown.length === 0 && (
            <p className="palette-empty" role="status">
              {t("empty")}
            </p>
          )}
        </div>
      </dialog>
    </>
  );
}
