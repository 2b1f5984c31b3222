"use client";

import { useTranslations } from "next-intl";
import { useState } from "react";
import { MonitorIcon, MoonIcon, SunIcon } from "./shell-icons";
import { THEME_COOKIE, type ThemeChoice } from "./theme";

const CHOICES = [
  { value: "light", Icon: SunIcon },
  { value: "dark", Icon: MoonIcon },
  { value: "system", Icon: MonitorIcon },
] as const satisfies readonly { value: ThemeChoice; Icon: unknown }[];

/** Applies a choice to this page at once and remembers it for the next ones (components/ui/theme.ts). */
function applyTheme(choice: ThemeChoice) {
  const root = document.documentElement;
  if (choice === "system") {
    delete root.dataset.theme;
    document.cookie = `${THEME_COOKIE.name}=; path=/; max-age=0; samesite=lax`;
  } else {
    root.dataset.theme = choice;
    document.cookie = `${THEME_COOKIE.name}=${choice}; path=/; max-age=${THEME_COOKIE.maxAge}; samesite=lax`;
  }
}

/** Light, dark or as the system: three toggle buttons, the current one pressed. */
export function ThemeSwitcher({ initial }: { initial: ThemeChoice }) {
  const t = useTranslations("Theme");
  const [choice, setChoice] = useState(initial);
  return (
    <div className="theme-switcher" role="group" aria-label={t("label")}>
      {CHOICES.map(({ value, Icon }) => (
        <button
          key={value}
          type="button"
          aria-pressed={choice === value}
          title={t(value)}
          onClick={() => {
            setChoice(value);
            applyTheme(value);
          }}
        >
          <Icon size={18} />
          <span className="theme-switcher-label">{t(value)}</span>
        </button>
      ))}
    </div>
  );
}
