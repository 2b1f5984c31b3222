import { useFormatter, useTranslations } from "next-intl";
import type { ProfileOutput } from "@/lib/gamification/schema";

/** The level with a progress bar to the next one, the points, the tasks completed and the streaks. */
export function ProgressSummary({ profile }: { profile: ProfileOutput }) {
  const t = useTranslations("Achievements");
  const format = useFormatter();
  const { level, streak } = profile;
  const progressText = t("levelProgressText", {
    points: format.number(profile.points),
    next: format.number(level.nextLevelPoints),
    level: level.level + 1,
  });
  return (
    <div className="achievements-summary">
      <section className="achievements-card" aria-labelledby="level-title">
        <h2 id="level-title">{t("levelTitle")}</h2>
        <p className="achievements-level" data-testid="level">
          {t("levelValue", { level: level.level })}
        </p>
        <div
          className="achievements-track"
          role="progressbar"
          aria-label={t("levelProgressLabel", { next: level.level + 1 })}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={level.percent}
          aria-valuetext={progressText}
        >
          <div className="achievements-fill" style={{ inlineSize: `${level.percent}%` }} />
        </div>
        <p className="achievements-muted">{progressText}</p>
        <dl className="achievements-stats">
          <div>
            <dt>{t("pointsLabel")}</dt>
            <dd data-testid="points">{format.number(profile.points)}</dd>
          </div>
          <div>
            <dt>{t("tasksLabel")}</dt>
            <dd>{format.number(profile.tasksCompleted)}</dd>
          </div>
          <div>
            <dt>{t("onTimeLabel")}</dt>
            <dd>{format.number(profile.onTimeCompleted)}</dd>
          </div>
        </dl>
      </section>
      <section className="achievements-card" aria-labelledby="streak-title">
        <h2 id="streak-title">{t("streakTitle")}</h2>
        <dl className="achievements-stats">
          <div>
            <dt>{t("currentStreak")}</dt>
            <dd data-testid="current-streak">{t("days", { count: streak.current })}</dd>
          </div>
          <div>
            <dt>{t("longestStreak")}</dt>
            <dd>{t("days", { count: streak.longest })}</dd>
          </div>
        </dl>
        <p className="achievements-muted">{t("streakHint")}</p>
      </section>
    </div>
  );
}
