import type { Metadata } from "next";
import { notFound, redirect } from "next/navigation";
import { NextIntlClientProvider } from "next-intl";
import { getMessages, getTranslations, setRequestLocale } from "next-intl/server";
import { signInPath } from "@/components/auth/next-path";
import { pageActor } from "@/components/auth/page-session";
import { TimeReport } from "@/components/time-tracking/time-report";
import { tagOfSegment } from "@/lib/i18n/locales";
import { isModuleEnabled } from "@/lib/modules/registry";
import { getReport } from "@/lib/time-tracking/service";
import "@/components/goals/goals.css";
import "@/components/time-tracking/time.css";

/**
 * /{locale}/time: the time tracked on the tasks the user can see, per task, person or day over a range of local
 * dates (the last 7 days at first), with a CSV download. 404 while the time-tracking module is off; signed-in only.
 */
type Props = { params: Promise<{ locale: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const tag = tagOfSegment((await params).locale);
  if (!tag) return {};
  const t = await getTranslations({ locale: tag, namespace: "TimeTracking" });
  return { title: t("metaTitle"), robots: { index: false, follow: false } };
}

export default async function TimePage({ params }: Props) {
  const { locale } = await params;
  const tag = tagOfSegment(locale);
  if (!tag || !isModuleEnabled("time-tracking")) notFound();
  setRequestLocale(tag);
  const actor = await pageActor();
  if (!actor) redirect(signInPath(locale, `/${locale}/time`));

  const report = await getReport(actor, { by: "task" });
  const t = await getTranslations({ locale: tag, namespace: "TimeTracking" });
  const messages = await getMessages({ locale: tag });
  return (
    <div className="goals-page">
      <header className="goal-header">
        <h1>{t("title")}</h1>
        <p className="goal-lead">{t("lead")}</p>
      </header>
      <NextIntlClientProvider locale={tag} messages={{ TimeTracking: messages.TimeTracking }} timeZone={actor.timeZone}>
        <section className="goal-section" aria-labelledby="time-report-title">
          <h2 id="time-report-title">{t("reportTitle")}</h2>
          <TimeReport initial={report} />
        </section>
      </NextIntlClientProvider>
    </div>
  );
}
