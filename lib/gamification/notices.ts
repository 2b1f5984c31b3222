import { createTranslator } from "use-intl/core";
import cs from "../../messages/cs.json";
import en from "../../messages/en.json";
import he from "../../messages/he.json";
import ru from "../../messages/ru.json";
import ua from "../../messages/ua.json";
import { DEFAULT_LOCALE, isLocale, languageTag, type Locale } from "../i18n/locales";
import type { NewNotification } from "../notifications/service";
import type { BadgeId } from "./rules";

/** The in-app notifications of a level reached and a badge earned, in the user's language (the Achievements texts). */
const MESSAGES: Record<Locale, { Achievements: typeof en.Achievements }> = { en, cs, he, ru, ua };

function translator(locale: string) {
  const code = isLocale(locale) ? locale : DEFAULT_LOCALE;
  return createTranslator({ locale: languageTag(code), messages: MESSAGES[code], namespace: "Achievements" });
}

export function levelNotice(locale: string, level: number): NewNotification {
  const t = translator(locale);
  return { kind: "gamification.level_up", title: t("noticeLevelTitle", { level }), body: t("noticeLevelBody"), data: { level } };
}

export function badgeNotice(locale: string, badge: string): NewNotification {
  const t = translator(locale);
  const id = badge as BadgeId;
  return {
    kind: "gamification.badge_earned",
    title: t("noticeBadgeTitle", { badge: t(`badges.${id}.name`) }),
    body: t(`badges.${id}.rule`),
    data: { badge },
  };
}
