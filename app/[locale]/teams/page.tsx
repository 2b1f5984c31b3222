import type { Metadata } from "next";
import { notFound, redirect } from "next/navigation";
import { NextIntlClientProvider } from "next-intl";
import { getMessages, getTranslations, setRequestLocale } from "next-intl/server";
import { signInPath } from "@/components/auth/next-path";
import { pageActor } from "@/components/auth/page-session";
import { CircleList } from "@/components/teams/circle-list";
import { NewCircleForm } from "@/components/teams/new-circle-form";
import { tagOfSegment } from "@/lib/i18n/locales";
import { listUserGroups } from "@/lib/teams/service";
import { DESCRIPTION_MAX, NAME_MAX } from "@/lib/teams/schema";
import "@/components/goals/goals.css";
import "@/components/teams/teams.css";

/**
 * /{locale}/teams: the teams (user groups) the signed-in user belongs to, with their role, and a form to create
 * one (which opens the new team's page). Signed-in only: anyone else goes to the sign-in page and back here.
 */
type Props = { params: Promise<{ locale: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const tag = tagOfSegment((await params).locale);
  if (!tag) return {};
  const t = await getTranslations({ locale: tag, namespace: "Teams" });
  return { title: t("team.metaTitle"), robots: { index: false, follow: false } };
}

export default async function TeamsPage({ params }: Props) {
  const { locale } = await params;
  const tag = tagOfSegment(locale);
  if (!tag) notFound();
  setRequestLocale(tag);
  const actor = await pageActor();
  if (!actor) redirect(signInPath(locale, `/${locale}/teams`));

  const teams = await listUserGroups(actor);
  const t = await getTranslations({ locale: tag, namespace: "Teams" });
  const messages = await getMessages({ locale: tag });
  return (
    <div className="circle-page">
      <header className="circle-header">
        <h1>{t("team.title")}</h1>
        <p className="circle-lead">{t("team.lead")}</p>
      </header>
      <NextIntlClientProvider locale={tag} messages={{ Teams: messages.Teams }} timeZone={actor.timeZone}>
        <section className="circle-section" aria-labelledby="new-team-title">
          <h2 id="new-team-title">{t("team.newTitle")}</h2>
          <NewCircleForm kind="team" locale={locale} limits={{ name: NAME_MAX, description: DESCRIPTION_MAX }} />
        </section>
        <section className="circle-section plain" aria-labelledby="team-list-title">
          <h2 id="team-list-title">{t("team.listTitle")}</h2>
          <CircleList kind="team" items={teams.items} locale={locale} />
        </section>
      </NextIntlClientProvider>
    </div>
  );
}
