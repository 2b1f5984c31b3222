import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { createFormatter, NextIntlClientProvider } from "next-intl";
import { getMessages, getTranslations, setRequestLocale } from "next-intl/server";
import { parseAdminQuery, RECENT_ERRORS, USER_PAGE_SIZE } from "@/components/admin/admin-query";
import { ErrorStatsSection } from "@/components/admin/error-stats-section";
import { JobsSection } from "@/components/admin/jobs-section";
import { QueueSection } from "@/components/admin/queue-section";
import { ModulesSection } from "@/components/admin/modules-section";
import { RecentErrorsSection } from "@/components/admin/recent-errors-section";
import { UsersSection } from "@/components/admin/users-section";
import { pageActor } from "@/components/auth/page-session";
import { listJobStatus, listUsers } from "@/lib/admin/service";
import { errorStats, recentErrors } from "@/lib/errors/service";
import { tagOfSegment } from "@/lib/i18n/locales";
import { listModules } from "@/lib/modules/service";
import { queueSummary } from "@/lib/queue/service";
import "@/components/admin/admin.css";

/**
 * /{locale}/admin: the administrators' dashboard (ADMIN_EMAILS): the users (search, pages, disable and enable), the
 * feature modules (switches), the background jobs, the work queue, the error statistics of a period and the recent
 * errors. Everyone else, signed in or not, gets the ordinary 404 page:
 * nothing tells them that the page exists.
 */
type Props = {
  params: Promise<{ locale: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const tag = tagOfSegment((await params).locale);
  const actor = tag ? await pageActor() : null;
  if (!tag || !actor?.isAdmin) return {};
  const t = await getTranslations({ locale: tag, namespace: "Admin" });
  return { title: t("metaTitle"), robots: { index: false, follow: false } };
}

export default async function AdminPage({ params, searchParams }: Props) {
  const { locale } = await params;
  const tag = tagOfSegment(locale);
  if (!tag) notFound();
  setRequestLocale(tag);
  const actor = await pageActor();
  if (!actor?.isAdmin) notFound();

  const query = parseAdminQuery(await searchParams);
  const now = new Date();
  const [users, modules, jobs, queue, stats, errors] = await Promise.all([
    listUsers({ q: query.q, page: query.page, pageSize: USER_PAGE_SIZE }),
    listModules(),
    listJobStatus(),
    queueSummary(),
    errorStats(query.days, now),
    recentErrors({ limit: RECENT_ERRORS, ...(query.source && { source: query.source }) }),
  ]);
  const format = createFormatter({ locale: tag, timeZone: actor.timeZone, now });
  const t = await getTranslations({ locale: tag, namespace: "Admin" });
  const messages = await getMessages({ locale: tag });
  return (
    <div className="admin">
      <header className="admin-header">
        <h1>{t("title")}</h1>
        <p className="admin-lead">{t("lead")}</p>
      </header>
      <NextIntlClientProvider locale={tag} messages={{ Admin: messages.Admin }} timeZone={actor.timeZone}>
        <UsersSection locale={locale} query={query} users={users} actorId={actor.userId} format={format} />
        <ModulesSection modules={modules.items} format={format} />
      </NextIntlClientProvider>
      <JobsSection jobs={jobs.items} format={format} />
      <QueueSection summary={queue} />
      <ErrorStatsSection locale={locale} query={query} stats={stats} now={now} format={format} />
      <RecentErrorsSection locale={locale} query={query} errors={errors} format={format} />
    </div>
  );
}
