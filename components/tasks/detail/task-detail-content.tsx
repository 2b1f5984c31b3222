import { NextIntlClientProvider } from "next-intl";
import { getMessages } from "next-intl/server";
import { cache } from "react";
import { pageActor } from "@/components/auth/page-session";
import { REQUEST_LIST_LIMIT, requestsOfTask } from "@/components/requests/request-lists";
import { AppError } from "@/lib/api/app-error";
import type { Actor } from "@/lib/auth/actor";
import { listComments, listMentionees } from "@/lib/comments/service";
import { nowDate } from "@/lib/clock";
import { listCollaborationRequests } from "@/lib/collaboration/service";
import { listGroups } from "@/lib/groups/service";
import type { Locale } from "@/lib/i18n/locales";
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
import { TaskDetail } from "./task-detail";
import "@/components/auth/auth.css";
import "@/components/settings/settings.css";
import "./task-detail.css";
import "@/components/requests/requests.css";
import "@/components/comments/timeline.css";

/**
 * One task with everything about it, as the task page (app/[locale]/tasks/[id]) and the side panel over the list
 * and the board (app/[locale]/@panel/(.)tasks/[id]) both show it: read through the services with the user as
 * actor, so it shows exactly what the API would, then handed to the one TaskDetail of the browser.
 */

type VisibleTask = Awaited<ReturnType<typeof getVisibleTask>>;

/** The signed-in user and the task as they may see it (null when they cannot); read once per request. */
export const visibleTask = cache(async (id: string): Promise<{ actor: Actor | null; task: VisibleTask | null }> => {
  const actor = await pageActor();
  if (!actor || !taskIdParams.safeParse({ id }).success) return { actor, task: null };
  try {
    return { actor, task: await getVisibleTask(actor, id) };
  } catch (error) {
    if (error instanceof AppError && error.code === "not_found") return { actor, task: null };
    throw error;
  }
});

interface Props {
  /** The locale segment of the URL (`ua`) and its language tag (`uk`). */
  locale: string;
  tag: string;
  actor: Actor;
  record: VisibleTask;
}

export async function TaskDetailContent({ locale, tag, actor, record }: Props) {
  const id = record.id;
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
