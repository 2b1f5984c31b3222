import type { Metadata } from "next";
import { notFound, redirect } from "next/navigation";
import { NextIntlClientProvider } from "next-intl";
import { getMessages, getTranslations, setRequestLocale } from "next-intl/server";
import { signInPath } from "@/components/auth/next-path";
import { pageActor } from "@/components/auth/page-session";
import { loadFirstPage, PAGE_SIZE } from "@/components/tasks/list/first-page";
import { DEFAULT_SORT } from "@/components/tasks/list/filters";
import { requirePageModule } from "@/components/modules/require-page-module";
import { CircleDetail } from "@/components/teams/circle-detail";
import { AppError } from "@/lib/api/app-error";
import type { Actor } from "@/lib/auth/actor";
import { nowDate } from "@/lib/clock";
import { listGroups } from "@/lib/groups/service";
import { isLocale, tagOfSegment } from "@/lib/i18n/locales";
import { DESCRIPTION_MAX, NAME_MAX } from "@/lib/projects/schema";
import { getProject, getProjectWorkload, listProjectMembers } from "@/lib/projects/service";
import "@/components/goals/goals.css";
import "@/components/tasks/list/task-list.css";
import "@/components/teams/teams.css";

/**
 * /{locale}/projects/{id}: one of the signed-in user's projects: its tasks, members and roles, each member's workload, inviting, renaming
 * and deleting as the user's role allows. A project the user is not in, or none, is the 404 page; so is every
 * project page while the `projects` module is off.
 */
type Props = { params: Promise<{ locale: string; id: string }> };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const tag = tagOfSegment((await params).locale);
  if (!tag) return {};
  const t = await getTranslations({ locale: tag, namespace: "Teams" });
  return { title: t("project.detailMetaTitle"), robots: { index: false, follow: false } };
}

async function loadProject(actor: Actor, id: string, locale: string) {
  if (!UUID.test(id)) return null;
  try {
    const project = await getProject(actor, id);
    const queryString = new URLSearchParams({ projectId: id, sort: DEFAULT_SORT, limit: String(PAGE_SIZE) }).toString();
    const [members, workload, initial, groups] = await Promise.all([
      listProjectMembers(actor, id),
      getProjectWorkload(actor, id),
      loadFirstPage(actor, queryString),
      isLocale(locale) ? listGroups(actor, { lang: locale }) : { items: [] },
    ]);
    const groupNames = Object.fromEntries(groups.items.map((group) => [group.id, group.name]));
    return { project, members: members.items, workload: workload.items, tasks: { queryString, initial, groupNames } };
  } catch (error) {
    if (error instanceof AppError && error.code === "not_found") return null;
    throw error;
  }
}

export default async function ProjectPage({ params }: Props) {
  const { locale, id } = await params;
  const tag = tagOfSegment(locale);
  if (!tag) notFound();
  requirePageModule("projects");
  setRequestLocale(tag);
  const actor = await pageActor();
  if (!actor) redirect(signInPath(locale, `/${locale}/projects/${id}`));

  const loaded = await loadProject(actor, id, locale);
  if (!loaded) notFound();
  const messages = await getMessages({ locale: tag });
  return (
    <div className="circle-page">
      <NextIntlClientProvider
        locale={tag}
        messages={{ Teams: messages.Teams, TaskList: messages.TaskList, TaskFields: messages.TaskFields }}
        timeZone={actor.timeZone}
      >
        <CircleDetail
          kind="project"
          locale={locale}
          userId={actor.userId}
          timeZone={actor.timeZone}
          now={nowDate().toISOString()}
          circle={loaded.project}
          members={loaded.members}
          workload={loaded.workload}
          tasks={loaded.tasks}
          limits={{ name: NAME_MAX, description: DESCRIPTION_MAX }}
        />
      </NextIntlClientProvider>
    </div>
  );
}
