import { useFormatter, useTranslations } from "next-intl";
import type { BadgeOutput } from "@/lib/gamification/schema";

/** Every badge: its name and rule, and when it was earned (the day in the reader's time zone) or how far along the user is. */
export function BadgeGrid({ badges, timeZone }: { badges: readonly BadgeOutput[]; timeZone: string }) {
  const t = useTranslations("Achievements");
  const format = useFormatter();
  return (
    <ul className="achievements-badges">
      {badges.map((badge) => {
        const name = t(`badges.${badge.id}.name`);
        const percent = Math.floor((badge.progress.current * 100) / badge.progress.target);
        return (
          <li key={badge.id} className={badge.earned ? "achievements-badge earned" : "achievements-badge"} data-badge={badge.id}>
            <span className="achievements-badge-icon" aria-hidden="true">
              {badge.earned ? "★" : "☆"}
            </span>
            <h3>{name}</h3>
            <p className="achievements-muted">{t(`badges.${badge.id}.rule`)}</p>
            {badge.earned && badge.earnedAt ? (
              <p className="achievements-badge-state">
                {t("badgeEarned", { date: format.dateTime(new Date(badge.earnedAt), { dateStyle: "medium", timeZone }) })}
              </p>
            ) : (
              <>
                <div
                  className="achievements-track small"
                  role="progressbar"
                  aria-label={t("badgeProgressLabel", { badge: name })}
                  aria-valuemin={0}
                  aria-valuemax={badge.progress.target}
                  aria-valuenow={badge.progress.current}
                >
                  <div className="achievements-fill" style={{ inlineSize: `${percent}%` }} />
                </div>
                <p className="achievements-badge-state">
                  {t("badgeNotYet")} · {t("badgeProgress", { current: badge.progress.current, target: badge.progress.target })}
                </p>
              </>
            )}
          </li>
        );
      })}
    </ul>
  );
}
