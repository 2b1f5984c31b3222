import { serverTranslator } from "../i18n/server-messages";
import type { NewNotification } from "../notifications/service";
import type { BadgeId } from "./rules";

/** The in-app notifications of a level reached and a badge earned, in the user's language (the Achievements texts). */
const translator = (locale: string) => serverTranslator(locale, "Achievements");

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
