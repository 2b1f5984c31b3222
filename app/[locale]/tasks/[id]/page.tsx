import type { Metadata } from "next";
import { notFound, redirect } from "next/navigation";
import { NextIntlClientProvider } from "next-intl";
import { getMessages, setRequestLocale } from "next-intl/server";
import { cache } from "react";
import { signInPath } from "@/components/auth/next-path";
import { pageActor } from "@/components/auth/page-session";
import { REQUEST_LIST_LIMIT, requestsOfTask } from "@/components/requests/request-lists";
import { TaskDetail } from "@/components/tasks/detail/task-detail";
import { AppError } from "@/lib/api/app-error";
import { listComments, listMentionees } from "@/lib/comments/service";
import { nowDate } from "@/lib/clock";
import { listCollaborationRequests } from "@/lib/collaboration/service";
import { listGroups } from "@/lib/groups/service";
import { type Locale, tagOfSegment } from "@/lib/i18n/locales";
import { listMedia } from "@/lib/media/service";
import { isModuleEnabled } from "@/lib/modules/registry";
import { getPrefs } from "@/lib/notifications/service";
import { mayOnTask } from "@/lib/permissions/tasks";
import { listProjects } from "@/lib/projects/service";
import { getTaskPeople } from "@/lib/tasks/people";
import { taskIdParams } from "@/lib/tasks/schema";
import { getVisibleTask, toTaskOutput } from "@/lib/tasks/service";
import { getSubtasks } from "@/lib/tasks/subtasks";
import { getTaskHistory } from "@/lib/task-history/service";
import { listUserGroups } from "@/lib/teams/service";
import { getTaskTime } from "@/lib/time-tracking/service";
import "@/components/auth/auth.css";
import "@/components/settings/settings.css";
import "@/components/tasks/detail/task-detail.css";
import "@/components/requests/requests.css";
import "@/components/comments/timeline.css";

/**
 * /{locale}/tasks/{id}: one task with everything about it. Signed-out visitors go to the sign-in page (and come
 * back); a task the user cannot see, or no task at all, is the 404 page, never a hint of its data. Everything is
 * read through the services with the user as actor, so the page shows exactly what the API would.
 */
type Props = { params: Promise<{ locale: string; id: string }> };

/** The signed-in user and the task as they may see it (null when they cannot); read once per request. */
const visibleTask = cache(async (id: string) => {
  const actor = await pageActor();
  if (!actor || !taskIdParams.safeParse({ id }).success) return { actor, task: null };
  try {
    return { actor, task: await getVisibleTask(actor, id) };
  } catch (error) {
    if (error instanceof AppError && error.code === "not_found") return { actor, task: null };
    throw error;
  }
});

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { id } = await params;
  const { task } = await visibleTask(id);
  return { ...(task && { title: task.title }), robots: { index: false, follow: false } };
}

export default async function TaskPage({ params }: Props) {
  const { locale, id } = await params;
  const tag = tagOfSegment(locale);
  if (!tag) notFound();
  setRequestLocale(tag);
  const { actor, task: record } = await visibleTask(id);
  if (!actor) redirect(signInPath(locale, `/${locale}/tasks/${id}`));
  if (!record) notFound();

  const task = toTaskOutput(record);
  const may = (action: Parameters<typeof mayOnTask>[2]) => mayOnTask(actor.userId, record, action);
  const [subtasks, people, groups, projects, userGroups, prefs, incoming, outgoing, media, time, comments, history, mentionees] =
    await Promise.all([
      getSubtasks(actor, id),
      getTaskPeople(actor, id),
      listGroups(actor, { lang: locale as Locale, includeArchived: true }),
      // While the projects module is off no project is offered (a task already in one can only leave it).
      isModuleEnabled("projects") ? listProjects(actor, false) : { items: [] },
      listUserGroups(actor),
      getPrefs(actor, id),
      listCollaborationRequests(actor, { box: "incoming", limit: REQUEST_LIST_LIMIT }),
      listCollaborationRequests(actor, { box: "outgoing", limit: REQUEST_LIST_LIMIT }),
      // Attachments only while the media module is on.
      isModuleEnabled("media") ? listMedia(actor, id) : null,
      isModuleEnabled("time-tracking") ? getTaskTime(actor, id) : null,
      listComments(actor, id, { limit: 100 }),
      getTaskHistory(actor, id, { limit: 50 }),
      listMentionees(actor, id),
    ]);
  const requests = requestsOfTask(id, incoming.items, outgoing.items);
  const messages = await getMessages({ locale: tag });

  return (
    <NextIntlClientProvider
      locale={tag}
      messages={{
        TaskDetail: messages.TaskDetail,
        TaskFields: messages.TaskFields,
        Requests: messages.Requests,
        Media: messages.Media,
        TimeTracking: messages.TimeTracking,
        TaskTimeline: messages.TaskTimeline,
      }}
      timeZone={actor.timeZone}
    >
      <TaskDetail
        me={{ id: actor.userId, timeZone: actor.timeZone }}
        now={nowDate().toISOString()}
        listHref={`/${locale}/tasks`}
        task={task}
        subtasks={subtasks}
        people={people}
        requests={requests}
        prefs={prefs}
        media={media?.items ?? null}
        time={time}
        conversation={{ comments, history, mentionees: mentionees.items }}
        can={{
          edit: may("edit"),
          manage: may("manage"),
          delete: may("delete"),
          share: may("share"),
          transfer: may("transfer"),
          claim: may("claim"),
        }}
        choices={{
          // Archived groups and projects the user only views are no place to move a task to, unless it is there.
          groups: groups.items
            .filter((group) => !group.archived || group.id === task.groupId)
            .map(({ id, name }) => ({ id, name })),
          projects: projects.items
            .filter((project) => project.role !== "viewer" || project.id === task.projectId)
            .map(({ id, name }) => ({ id, name })),
          userGroups: userGroups.items.map(({ id, name }) => ({ id, name })),
        }}
      />
    </NextIntlClientProvider>
  );
}
