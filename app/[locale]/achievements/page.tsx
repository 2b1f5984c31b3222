import type { Metadata } from "next";
import { notFound, redirect } from "next/navigation";
import { NextIntlClientProvider } from "next-intl";
import { getMessages, getTranslations, setRequestLocale } from "next-intl/server";
import { signInPath } from "@/components/auth/next-path";
import { pageActor } from "@/components/auth/page-session";
import { BadgeGrid } from "@/components/gamification/badge-grid";
import { HistoryList } from "@/components/gamification/history-list";
import { Leaderboard } from "@/components/gamification/leaderboard";
import { ProgressSummary } from "@/components/gamification/progress-summary";
import { getLeaderboard, getProfile, leaderboardChoices, listBadges, listHistory } from "@/lib/gamification/service";
import { tagOfSegment } from "@/lib/i18n/locales";
import { isModuleEnabled } from "@/lib/modules/registry";
import "@/components/gamification/achievements.css";

/**
 * /{locale}/achievements: the signed-in user's level, points, streaks, badges, leaderboard (with the opt-in switch)
 * and latest points. Part of the gamification module: a 404 while it is switched off. Signed-in only: anyone else
 * goes to the sign-in page, which brings them back here.
 */
type Props = { params: Promise<{ locale: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const tag = tagOfSegment((await params).locale);
  if (!tag) return {};
  const t = await getTranslations({ locale: tag, namespace: "Achievements" });
  return { title: t("metaTitle"), robots: { index: false, follow: false } };
}

export default async function AchievementsPage({ params }: Props) {
  const { locale } = await params;
  const tag = tagOfSegment(locale);
  if (!tag || !isModuleEnabled("gamification")) notFound();
  setRequestLocale(tag);
  const actor = await pageActor();
  if (!actor) redirect(signInPath(locale, `/${locale}/achievements`));

  const profile = await getProfile(actor);
  const badges = await listBadges(actor);
  const board = await getLeaderboard(actor, { scope: "global", period: "all", limit: 20 });
  const choices = await leaderboardChoices(actor);
  const history = await listHistory(actor, { limit: 10 });
  const t = await getTranslations({ locale: tag, namespace: "Achievements" });
  const messages = await getMessages({ locale: tag });
  return (
    <div className="achievements">
      <header className="achievements-header">
        <h1>{t("title")}</h1>
        <p className="achievements-muted">{t("lead")}</p>
      </header>
      <NextIntlClientProvider locale={tag} messages={{ Achievements: messages.Achievements }} timeZone={actor.timeZone}>
        <ProgressSummary profile={profile} />
        <section className="achievements-card" aria-labelledby="badges-title">
          <h2 id="badges-title">{t("badgesTitle")}</h2>
          <BadgeGrid badges={badges.items} timeZone={actor.timeZone} />
        </section>
        <section className="achievements-card" aria-labelledby="leaderboard-title">
          <h2 id="leaderboard-title">{t("leaderboardTitle")}</h2>
          <Leaderboard initial={board} choices={choices} optedIn={profile.leaderboardOptIn} />
        </section>
        <section className="achievements-card" aria-labelledby="history-title">
          <h2 id="history-title">{t("historyTitle")}</h2>
          <HistoryList items={history.items} timeZone={actor.timeZone} />
        </section>
      </NextIntlClientProvider>
    </div>
  );
}
