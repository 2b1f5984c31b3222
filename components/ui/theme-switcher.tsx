"use client";

import { useTranslations } from "next-intl";
import { MonitorIcon, MoonIcon, SunIcon } from "./shell-icons";
import type { ThemeChoice } from "./theme";
import { applyTheme, useThemeChoice } from "./theme-choice";

const CHOICES = [
  { value: "light", Icon: SunIcon },
  { value: "dark", Icon: MoonIcon },
  { value: "system", Icon: MonitorIcon },
] as const satisfies readonly { value: ThemeChoice; Icon: unknown }[];

/** Light, dark or as the system: three toggle buttons, the current one pressed. */
export function ThemeSwitcher({ initial }: { initial: ThemeChoice }) {
  const t = useTranslations("Theme");
  const choice = useThemeChoice(initial);
  return (
    <div className="theme-switcher" role="group" aria-label={t("label")}>
      {CHOICES.map(({ value, Icon }) => (
        <button key={value} type="button" aria-pressed={choice === value} title={t(value)} onClick={() => applyTheme(value)}>
          <Icon size={18} />
          <span className="theme-switcher-label">{t(value)}</span>
        </button>
      ))}
    </div>
  );
}
