import type { Metadata } from "next";
import { notFound, redirect } from "next/navigation";
import { NextIntlClientProvider } from "next-intl";
import { getMessages, getTranslations, setRequestLocale } from "next-intl/server";
import { signInPath } from "@/components/auth/next-path";
import { pageActor } from "@/components/auth/page-session";
import { requirePageModule } from "@/components/modules/require-page-module";
import { CircleList } from "@/components/teams/circle-list";
import { NewCircleForm } from "@/components/teams/new-circle-form";
import { tagOfSegment } from "@/lib/i18n/locales";
import { listProjects } from "@/lib/projects/service";
import { DESCRIPTION_MAX, NAME_MAX } from "@/lib/projects/schema";
import "@/components/goals/goals.css";
import "@/components/teams/teams.css";

/**
 * /{locale}/projects: the projects the signed-in user belongs to (archived ones left out), with their role and open
 * tasks, and a form to create one (which opens the new project's page). Signed-in only. A page of the `projects` module: 404 while it is off.
 */
type Props = { params: Promise<{ locale: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const tag = tagOfSegment((await params).locale);
  if (!tag) return {};
  const t = await getTranslations({ locale: tag, namespace: "Teams" });
  return { title: t("project.metaTitle"), robots: { index: false, follow: false } };
}

export default async function ProjectsPage({ params }: Props) {
  const { locale } = await params;
  const tag = tagOfSegment(locale);
  if (!tag) notFound();
  requirePageModule("projects");
  setRequestLocale(tag);
  const actor = await pageActor();
  if (!actor) redirect(signInPath(locale, `/${locale}/projects`));

  const projects = await listProjects(actor, false);
  const t = await getTranslations({ locale: tag, namespace: "Teams" });
  const messages = await getMessages({ locale: tag });
  return (
    <div className="circle-page">
      <header className="circle-header">
        <h1>{t("project.title")}</h1>
        <p className="circle-lead">{t("project.lead")}</p>
      </header>
      <NextIntlClientProvider locale={tag} messages={{ Teams: messages.Teams }} timeZone={actor.timeZone}>
        <section className="circle-section" aria-labelledby="new-project-title">
          <h2 id="new-project-title">{t("project.newTitle")}</h2>
          <NewCircleForm kind="project" locale={locale} limits={{ name: NAME_MAX, description: DESCRIPTION_MAX }} />
        </section>
        <section className="circle-section plain" aria-labelledby="project-list-title">
          <h2 id="project-list-title">{t("project.listTitle")}</h2>
          <CircleList kind="project" items={projects.items} locale={locale} />
        </section>
      </NextIntlClientProvider>
    </div>
  );
}
