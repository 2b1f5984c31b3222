import type { Metadata } from "next";
import { notFound, redirect } from "next/navigation";
import { getFormatter, getTranslations, setRequestLocale } from "next-intl/server";
import { Suspense } from "react";
import { BriefingGoals, BriefingNarrative, BriefingReviews, BriefingTasks } from "@/components/assistant/briefing";
import { signInPath } from "@/components/auth/next-path";
import { pageActor } from "@/components/auth/page-session";
import { requirePageModule } from "@/components/modules/require-page-module";
import { briefingQuery } from "@/lib/assistant/schema";
import { briefingFacts, briefingLists } from "@/lib/assistant/service";
import { isLocale, tagOfSegment } from "@/lib/i18n/locales";
import { addDays, localDateOf } from "@/lib/local-dates";
import "@/components/assistant/assistant.css";

/**
 * /{locale}/briefing (?date=YYYY-MM-DD, default today in the user's time zone): the day's tasks, the overdue ones,
 * goal progress, the spaced-repetition cards due (with a link to /reviews; "switched off" while that module is) and a few sentences about the day (`/briefing`). The lists render on
 * the server; the narrative follows when it is written. Signed-in only.
 */
type Props = { params: Promise<{ locale: string }>; searchParams: Promise<{ date?: string | string[] }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const tag = tagOfSegment((await params).locale);
  if (!tag) return {};
  const t = await getTranslations({ locale: tag, namespace: "Briefing" });
  return { title: t("metaTitle"), robots: { index: false, follow: false } };
}

export default async function BriefingPage({ params, searchParams }: Props) {
  const { locale } = await params;
  const tag = tagOfSegment(locale);
  if (!tag || !isLocale(locale)) notFound();
  requirePageModule("ai");
  setRequestLocale(tag);
  const actor = await pageActor();
  if (!actor) redirect(signInPath(locale, `/${locale}/briefing`));

  // A date that is not one shows today, as without it.
  const asked = briefingQuery.safeParse({ date: (await searchParams).date });
  const briefing = await briefingFacts(actor, asked.success ? asked.data.date : undefined);
  const lists = briefingLists(briefing);
  const today = localDateOf(briefing.now, actor.timeZone);
  const t = await getTranslations({ locale: tag, namespace: "Briefing" });
  const format = await getFormatter({ locale: tag });
  const dayLink = (date: string) => `/${locale}/briefing?date=${date}`;
  const now = briefing.now.toISOString();

  return (
    <div className="assistant-page">
      <header className="assistant-header">
        <h1>{t("title")}</h1>
        <p className="assistant-date">
          {format.dateTime(new Date(`${lists.date}T12:00:00Z`), { timeZone: "UTC", dateStyle: "full" })}
        </p>
        <nav className="assistant-pager" aria-label={t("days")}>
          <a href={dayLink(addDays(lists.date, -1))}>{t("previousDay")}</a>
          {lists.date !== today && <a href={`/${locale}/briefing`}>{t("today")}</a>}
          <a href={dayLink(addDays(lists.date, 1))}>{t("nextDay")}</a>
        </nav>
      </header>

      <section className="assistant-card" aria-labelledby="briefing-summary">
        <h2 id="briefing-summary">{t("summary")}</h2>
        <Suspense fallback={<p className="assistant-empty">{t("writing")}</p>}>
          <BriefingNarrative actor={actor} briefing={briefing} locale={locale} />
        </Suspense>
      </section>

      <div className="assistant-grid">
        <section className="assistant-card" aria-labelledby="briefing-due">
          <h2 id="briefing-due">{t("dueTitle", { count: lists.today.length })}</h2>
          <BriefingTasks tasks={lists.today} now={now} timeZone={actor.timeZone} locale={locale} empty={t("noneDue")} />
        </section>
        <section className="assistant-card" aria-labelledby="briefing-overdue">
          <h2 id="briefing-overdue">{t("overdueTitle", { count: lists.overdue.length })}</h2>
          <BriefingTasks tasks={lists.overdue} now={now} timeZone={actor.timeZone} locale={locale} empty={t("noneOverdue")} />
        </section>
        <section className="assistant-card" aria-labelledby="briefing-goals">
          <h2 id="briefing-goals">{t("goalsTitle")}</h2>
          <BriefingGoals goals={lists.goals} />
        </section>
        <section className="assistant-card" aria-labelledby="briefing-reviews">
          <h2 id="briefing-reviews">{t("reviewsTitle")}</h2>
          <BriefingReviews lists={lists} timeZone={actor.timeZone} locale={locale} />
        </section>
      </div>

      <p className="assistant-links">
        <a href={`/${locale}/chat`}>{t("askAssistant")}</a>
        <a href={`/${locale}/reports`}>{t("weeklyReports")}</a>
      </p>
    </div>
  );
}
