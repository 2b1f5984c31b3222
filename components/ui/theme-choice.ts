"use client";

import { useSyncExternalStore } from "react";
import { THEME_COOKIE, themeOf, type ThemeChoice } from "./theme";

/*
 * The visitor's theme choice in the browser. The page itself holds it: `<html data-theme>` is the chosen theme,
 * no attribute means following the system (components/ui/theme.ts). So the header's switcher and the command
 * palette, which both change it, always agree.
 */

/** Applies a choice to this page at once and remembers it for the next ones. */
export function applyTheme(choice: ThemeChoice) {
  const root = document.documentElement;
  if (choice === "system") {
    delete root.dataset.theme;
    document.cookie = `${THEME_COOKIE.name}=; path=/; max-age=0; samesite=lax`;
  } else {
    root.dataset.theme = choice;
    document.cookie = `${THEME_COOKIE.name}=${choice}; path=/; max-age=${THEME_COOKIE.maxAge}; samesite=lax`;
  }
}

function subscribe(onChange: () => void) {
  const observer = new MutationObserver(onChange);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ["data-theme"] });
  return () => observer.disconnect();
}

function choiceOnPage(): ThemeChoice {
  return themeOf(document.documentElement.dataset.theme) ?? "system";
}

/** The choice in force on this page; `initial` is the one the server rendered it with. */
export function useThemeChoice(initial: ThemeChoice): ThemeChoice {
  return useSyncExternalStore(subscribe, choiceOnPage, () => initial);
}
