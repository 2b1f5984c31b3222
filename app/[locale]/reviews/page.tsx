import type { Metadata } from "next";
import { notFound, redirect } from "next/navigation";
import { NextIntlClientProvider } from "next-intl";
import { getMessages, getTranslations, setRequestLocale } from "next-intl/server";
import { signInPath } from "@/components/auth/next-path";
import { pageActor } from "@/components/auth/page-session";
import { ReviewsApp } from "@/components/reviews/reviews-app";
import { listGoals } from "@/lib/goals/service";
import { tagOfSegment } from "@/lib/i18n/locales";
import { isModuleEnabled } from "@/lib/modules/registry";
import { listCards, listDue } from "@/lib/reviews/service";
import "@/components/goals/goals.css";
import "@/components/reviews/reviews.css";

/**
 * /{locale}/reviews: the spaced-repetition cards due now, one at a time (front, the answer, a grade), and the user's
 * cards to add, edit, link to a goal and delete. The 404 page while the `spaced-repetition` module is off.
 * Signed-in only: anyone else goes to the sign-in page, which brings them back here.
 */
type Props = { params: Promise<{ locale: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const tag = tagOfSegment((await params).locale);
  if (!tag) return {};
  const t = await getTranslations({ locale: tag, namespace: "Reviews" });
  return { title: t("metaTitle"), robots: { index: false, follow: false } };
}

export default async function ReviewsPage({ params }: Props) {
  const { locale } = await params;
  const tag = tagOfSegment(locale);
  if (!tag || !isModuleEnabled("spaced-repetition")) notFound();
  setRequestLocale(tag);
  const actor = await pageActor();
  if (!actor) redirect(signInPath(locale, `/${locale}/reviews`));

  const due = await listDue(actor, { limit: 100 });
  const cards = await listCards(actor, { limit: 200 });
  const goals = (await listGoals(actor, { status: "active" })).items.map(({ id, title }) => ({ id, title }));
  const t = await getTranslations({ locale: tag, namespace: "Reviews" });
  const messages = await getMessages({ locale: tag });
  return (
    <div className="goals-page">
      <header className="goal-header">
        <h1>{t("title")}</h1>
        <p className="goal-lead">{t("lead")}</p>
      </header>
      <NextIntlClientProvider
        locale={tag}
        messages={{ Reviews: messages.Reviews, Goals: messages.Goals }}
        timeZone={actor.timeZone}
      >
        <ReviewsApp due={due.items} dueTotal={due.total} cards={cards.items} goals={goals} locale={locale} />
      </NextIntlClientProvider>
    </div>
  );
}
