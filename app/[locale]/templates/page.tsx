import type { Metadata } from "next";
import { notFound, redirect } from "next/navigation";
import { NextIntlClientProvider } from "next-intl";
import { getMessages, getTranslations, setRequestLocale } from "next-intl/server";
import { signInPath } from "@/components/auth/next-path";
import { pageActor } from "@/components/auth/page-session";
import { TemplateLibrary } from "@/components/templates/template-library";
import { nowDate } from "@/lib/clock";
import { listGroups } from "@/lib/groups/service";
import { type Locale, tagOfSegment } from "@/lib/i18n/locales";
import { localDateOf } from "@/lib/local-dates";
import { isModuleEnabled } from "@/lib/modules/registry";
import { listTemplates } from "@/lib/templates/service";
import "@/components/goals/goals.css";
import "@/components/templates/templates.css";

/**
 * /{locale}/templates: the built-in templates (in the page's language) and the user's own, each with a preview and
 * a form to apply it to one of their groups; and a form to save a group as a template. 404 while the templates
 * module is off; signed-in only.
 */
type Props = { params: Promise<{ locale: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const tag = tagOfSegment((await params).locale);
  if (!tag) return {};
  const t = await getTranslations({ locale: tag, namespace: "Templates" });
  return { title: t("metaTitle"), robots: { index: false, follow: false } };
}

export default async function TemplatesPage({ params }: Props) {
  const { locale } = await params;
  const tag = tagOfSegment(locale);
  if (!tag || !isModuleEnabled("templates")) notFound();
  setRequestLocale(tag);
  const actor = await pageActor();
  if (!actor) redirect(signInPath(locale, `/${locale}/templates`));

  const [templates, groups] = await Promise.all([
    listTemplates(actor, locale as Locale),
    listGroups(actor, { lang: locale as Locale, includeArchived: false }),
  ]);
  const t = await getTranslations({ locale: tag, namespace: "Templates" });
  const messages = await getMessages({ locale: tag });
  return (
    <div className="goals-page">
      <header className="goal-header">
        <h1>{t("title")}</h1>
        <p className="goal-lead">{t("lead")}</p>
      </header>
      <NextIntlClientProvider
        locale={tag}
        messages={{ Templates: messages.Templates, Goals: messages.Goals }}
        timeZone={actor.timeZone}
      >
        <TemplateLibrary
          templates={templates.items}
          groups={groups.items.map(({ id, name }) => ({ id, name }))}
          today={localDateOf(nowDate(), actor.timeZone)}
          tasksHref={`/${locale}/tasks`}
        />
      </NextIntlClientProvider>
    </div>
  );
}
