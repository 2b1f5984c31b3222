import type { Metadata } from "next";
import { notFound, redirect } from "next/navigation";
import { NextIntlClientProvider } from "next-intl";
import { getMessages, getTranslations, setRequestLocale } from "next-intl/server";
import { signInPath } from "@/components/auth/next-path";
import { pageActor } from "@/components/auth/page-session";
import { GoalList } from "@/components/goals/goal-list";
import { NewGoalForm } from "@/components/goals/new-goal-form";
import { listGoals } from "@/lib/goals/service";
import { tagOfSegment } from "@/lib/i18n/locales";
import "@/components/goals/goals.css";

/**
 * /{locale}/goals: the signed-in user's goals with their progress, and a form to create one (which opens the new
 * goal's page). Signed-in only: anyone else goes to the sign-in page, which brings them back here.
 */
type Props = { params: Promise<{ locale: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const tag = tagOfSegment((await params).locale);
  if (!tag) return {};
  const t = await getTranslations({ locale: tag, namespace: "Goals" });
  return { title: t("metaTitle"), robots: { index: false, follow: false } };
}

export default async function GoalsPage({ params }: Props) {
  const { locale } = await params;
  const tag = tagOfSegment(locale);
  if (!tag) notFound();
  setRequestLocale(tag);
  const actor = await pageActor();
  if (!actor) redirect(signInPath(locale, `/${locale}/goals`));

  const goals = await listGoals(actor, {});
  const t = await getTranslations({ locale: tag, namespace: "Goals" });
  const messages = await getMessages({ locale: tag });
  return (
    <div className="goals-page">
      <header className="goal-header">
        <h1>{t("title")}</h1>
        <p className="goal-lead">{t("lead")}</p>
      </header>
      <NextIntlClientProvider locale={tag} messages={{ Goals: messages.Goals }} timeZone={actor.timeZone}>
        <section className="goal-section" aria-labelledby="new-goal-title">
          <h2 id="new-goal-title">{t("newTitle")}</h2>
          <NewGoalForm locale={locale} />
        </section>
        <section className="goal-section plain" aria-labelledby="goal-list-title">
          <h2 id="goal-list-title">{t("listTitle")}</h2>
          <GoalList goals={goals.items} locale={locale} />
        </section>
      </NextIntlClientProvider>
    </div>
  );
}
