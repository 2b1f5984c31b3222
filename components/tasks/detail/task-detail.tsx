"use client";

import { useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import { TaskTimeline } from "@/components/comments/task-timeline";
import { useCallback, useEffect, useRef, useState } from "react";
import { boxOf, REQUEST_LIST_LIMIT, requestsOfTask } from "@/components/requests/request-lists";
import { useLiveEvents, type LiveEvent } from "@/components/realtime/use-live-events";
import { DueDate, PriorityBadge, StatusBadge } from "@/components/tasks/task-fields";
import { TaskTimer } from "@/components/time-tracking/task-timer";
import type { CommentListOutput, MentioneeListOutput } from "@/lib/comments/schema";
import type { ClaimOutput, CollaborationRequestOutput } from "@/lib/collaboration/schema";
import type { MediaItemOutput } from "@/lib/media/schema";
import type { PrefsOutput } from "@/lib/notifications/schema";
import type { SubtaskOutput, TaskOutput, TaskPeopleOutput, UpdateTaskInput } from "@/lib/tasks/schema";
import { etagOf } from "@/lib/api/etag";
import type { HistoryOutput } from "@/lib/task-history/schema";
import type { TaskTimeOutput } from "@/lib/time-tracking/schema";
import { AttachmentsPanel } from "./attachments-panel";
import { CollaborationPanel } from "./collaboration-panel";
import { DeleteTask } from "./delete-task";
import { BackIcon } from "./detail-icons";
import { InvitePanel } from "./invite-panel";
import { NotificationPrefs } from "./notification-prefs";
import { PeoplePanel } from "./people-panel";
import { RecurrenceEditor } from "./recurrence-editor";
import { SubtaskList } from "./subtask-list";
import { noAnswer, type SaveResult, type TaskAbilities } from "./task-api";
import { api } from "@/lib/api-client/client";
import { TaskEditor, type TaskChoices } from "./task-editor";
import { useTaskPanelClose } from "./task-panel";

/*
 * The task page in the browser: it holds the task, its subtasks, its people and its requests as the server
 * rendered them, and keeps them current. Its own changes show what the API answers; changes by anyone else
 * arrive on the socket (useLiveEvents): the task itself comes with the event, the rest is read again. A field
 * the user is typing in keeps their draft (see AutosaveField). What the user may do comes from the server; when
 * their place on the task changes (a transfer, a new share), the page asks the server again (router.refresh).
 * The same component is the side panel over the list and the board (./task-panel.tsx): there, the way back to the
 * list is the panel's close button, and a deleted task closes the panel.
 */

export interface TaskDetailProps {
  me: { id: string; timeZone: string };
  /** When the page was rendered (ISO): due dates read "today" alike on the server and in the browser. */
  now: string;
  listHref: string;
  task: TaskOutput;
  subtasks: SubtaskOutput[];
  people: TaskPeopleOutput;
  requests: CollaborationRequestOutput[];
  prefs: PrefsOutput;
  /** The task's media, or null while the media module is switched off (the section is then hidden). */
  media: MediaItemOutput[] | null;
  can: TaskAbilities;
  choices: TaskChoices;
  /** The time tracked on the task, or null while the time-tracking module is off (no timer then). */
  time: TaskTimeOutput | null;
  /** The first page of the task's comments and of its history, and whom a comment may mention (the timeline). */
  conversation: { comments: CommentListOutput; history: HistoryOutput; mentionees: MentioneeListOutput["items"] };
}

/** Why the task is no longer shown. */
type Gone = "deleted" | "unshared";

/** The parts of a task that decide who takes part in it and what the user may do with it. */
const partiesOf = (task: TaskOutput) =>
  JSON.stringify([task.ownerId, task.assigneeIds, task.collaboratorIds, task.userGroupId, task.projectId, task.groupId]);
/** The ids behind the names of the people panel. */
const peopleIdsOf = (task: TaskOutput) =>
  JSON.stringify([task.ownerId, task.assigneeIds, task.collaboratorIds, task.userGroupId]);

export function TaskDetail(props: TaskDetailProps) {
  const t = useTranslations("TaskDetail");
  const router = useRouter();
  const closePanel = useTaskPanelClose();
  const { me, can, now } = props;
  const taskId = props.task.id;
  const [task, setTask] = useState(props.task);
  const [subtasks, setSubtasks] = useState(props.subtasks);
  const [people, setPeople] = useState(props.people);
  const [requests, setRequests] = useState(props.requests);
  const [gone, setGone] = useState<Gone | null>(null);
  /** A change was refused because the task changed since the page showed it (412): the page offers to reload. */
  const [stale, setStale] = useState(false);
  const shown = useRef(props.task);
  useEffect(() => {
    shown.current = task;
  }, [task]);
  const [announcement, setAnnouncement] = useState("");
  const parties = useRef(partiesOf(props.task));
  const namedPeople = useRef(peopleIdsOf(props.task));

  const announce = useCallback((message: string) => {
    // Emptied first, so that the same words twice ("Saved") are announced twice.
    setAnnouncement("");
    requestAnimationFrame(() => setAnnouncement(message));
  }, []);

  /** Shows a task as read from the API or an event, unless a newer one is already shown (events may lag). */
  const showTask = useCallback((next: TaskOutput) => {
    setTask((current) => (next.updatedAt >= current.updatedAt ? next : current));
  }, []);

  const readTask = useCallback(async () => {
    const answer = await api.GET("/api/v1/tasks/{id}", { params: { path: { id: taskId } } }).catch(noAnswer);
    if (answer.ok) showTask(answer.body);
    else if (answer.status === 404) setGone("unshared");
  }, [taskId, showTask]);

  const readSubtasks = useCallback(async () => {
    const answer = await api.GET("/api/v1/tasks/{id}/subtasks", { params: { path: { id: taskId } } }).catch(noAnswer);
    if (answer.ok) setSubtasks(answer.body);
  }, [taskId]);

  const readPeople = useCallback(async () => {
    const answer = await api.GET("/api/v1/tasks/{id}/people", { params: { path: { id: taskId } } }).catch(noAnswer);
    if (answer.ok) setPeople(answer.body);
  }, [taskId]);

  const readRequests = useCallback(async () => {
    const boxes = await Promise.all(
      (["incoming", "outgoing"] as const).map((box) =>
        api.GET("/api/v1/collaboration-requests", { params: { query: { box, limit: REQUEST_LIST_LIMIT } } }).catch(noAnswer),
      ),
    );
    const [incoming, outgoing] = boxes;
    if (!incoming?.ok || !outgoing?.ok) return;
    setRequests(requestsOfTask(taskId, incoming.body.items, outgoing.body.items));
  }, [taskId]);

  // The names follow the ids: whenever the task's people change (here or elsewhere), read them again.
  const peopleIds = peopleIdsOf(task);
  useEffect(() => {
    if (peopleIds === namedPeople.current) return;
    namedPeople.current = peopleIds;
    void readPeople();
  }, [peopleIds, readPeople]);

  // What the user may do depends on their place on the task: when it changes, the server decides again.
  useEffect(() => {
    const current = partiesOf(task);
    if (current === parties.current) return;
    parties.current = current;
    router.refresh();
  }, [task, router]);

  const live = useLiveEvents({
    onEvent(event: LiveEvent) {
      if (event.taskId !== taskId) return;
      if (event.type === "task.deleted") return setGone("deleted");
      if (event.type === "task.unshared") return setGone("unshared");
      if (event.type.startsWith("collaboration.")) return void readRequests();
      const changed = (event.data as { task?: TaskOutput }).task;
      if (!changed) return;
      showTask(changed);
      // Subtask changes come as task updates without the subtasks: read them when someone else made the change
      // or the counts disagree with the list shown.
      const shown = { total: subtasks.length, done: subtasks.filter((subtask) => subtask.done).length };
      if (event.actorId !== me.id || changed.subtasks.total !== shown.total || changed.subtasks.done !== shown.done)
        void readSubtasks();
    },
    onResync() {
      void Promise.all([readTask(), readSubtasks(), readRequests()]);
    },
  });

  /** The changes of this page, one at a time: each is sent on the task as the previous one left it. */
  const saving = useRef<Promise<unknown>>(Promise.resolve());
  const saveTask = useCallback(
    (patch: UpdateTaskInput): Promise<SaveResult> => {
      const save = async (): Promise<SaveResult> => {
        // The change is made only on the task as this page shows it (If-Match): if someone changed it and the page
        // has not heard (the socket was away), the API refuses (412) instead of overwriting their change. Without
        // Web Crypto (a plain-http address other than localhost) the tag cannot be computed and the change is sent
        // as is.
        const etag = await etagOf(shown.current).catch(() => undefined);
        const answer = await api
          .PATCH("/api/v1/tasks/{id}", {
            params: { path: { id: taskId } },
            body: patch,
            headers: etag ? { "If-Match": etag } : {},
          })
          .catch(noAnswer);
        if (answer.ok) {
          if (answer.body.updatedAt >= shown.current.updatedAt) shown.current = answer.body;
          showTask(answer.body);
          announce(t("saved"));
          return { ok: true };
        }
        if (answer.status === 404) setGone("unshared");
        if (answer.status === 412) setStale(true);
        return { ok: false, status: answer.status, body: answer.body };
      };
      const result = saving.current.then(save);
      saving.current = result.catch(() => undefined);
      return result;
    },
    [taskId, showTask, announce, t],
  );

  const onRequestChanged = useCallback(
    (changed: CollaborationRequestOutput | null) => {
      if (!changed) return void readRequests();
      setRequests((current) => [changed, ...current.filter((item) => item.id !== changed.id)]);
      // An accepted request changes the task (a new assignee, collaborator or owner).
      if (changed.state === "accepted") void readTask();
    },
    [readRequests, readTask],
  );

  const onClaimed = useCallback(
    (result: ClaimOutput) => {
      showTask(result.task);
      setRequests((current) => [result.request, ...current.filter((item) => item.id !== result.request.id)]);
    },
    [showTask],
  );

  const finished = task.status === "done" || task.status === "cancelled";
  const incomingPending = requests.filter((item) => item.state === "pending" && boxOf(item, me.id) === "incoming").length;

  return (
    <article className="task-detail" aria-labelledby="task-heading">
      <header className="task-detail-header">
        {!closePanel && (
          <a className="task-back" href={props.listHref}>
            <BackIcon /> {t("backToList")}
          </a>
        )}
        <h1 id="task-heading" dir="auto">
          {task.title}
        </h1>
        <p className="task-badges">
          <StatusBadge status={task.status} />
          <PriorityBadge priority={task.priority} />
          {task.dueAt && <DueDate dueAt={task.dueAt} now={now} timeZone={me.timeZone} finished={finished} />}
          {task.subtasks.total > 0 && (
            <span className="task-progress">
              {t("subtaskProgress", { done: task.subtasks.done, total: task.subtasks.total })}
            </span>
          )}
          <span className={`task-live task-live-${live}`}>{t(`live.${live}`)}</span>
        </p>
        {incomingPending > 0 && <p className="task-notice">{t("incomingNotice", { count: incomingPending })}</p>}
      </header>
      {gone && (
        <div className="task-gone" role="alert">
          <p>{t(gone === "deleted" ? "goneDeleted" : "goneUnshared")}</p>
          {closePanel ? (
            <button className="button" type="button" onClick={closePanel}>
              {t("closePanel")}
            </button>
          ) : (
            <a className="button" href={props.listHref}>
              {t("backToList")}
            </a>
          )}
        </div>
      )}
      {stale && !gone && (
        <div className="task-gone task-stale" role="alert">
          <p>{t("staleNotice")}</p>
          <button className="button" type="button" onClick={() => window.location.reload()}>
            {t("staleReload")}
          </button>
        </div>
      )}
      <p className="auth-status task-announcer" role="status">
        {announcement}
      </p>
      {!gone && (
        <div className="task-detail-grid">
          <div className="task-main">
            <TaskEditor task={task} can={can} choices={props.choices} timeZone={me.timeZone} saveTask={saveTask} />
            <SubtaskList
              taskId={taskId}
              subtasks={subtasks}
              setSubtasks={setSubtasks}
              canEdit={can.edit}
              onChanged={readTask}
              announce={announce}
            />
            <RecurrenceEditor key={JSON.stringify(task.recurrence)} task={task} canManage={can.manage} saveTask={saveTask} />
            {props.media && (
              <AttachmentsPanel
                taskId={taskId}
                meId={me.id}
                taskOwnerId={task.ownerId}
                canUpload={can.edit}
                initial={props.media}
                announce={announce}
              />
            )}
            <TaskTimeline
              taskId={taskId}
              meId={me.id}
              canDeleteAny={can.delete}
              comments={props.conversation.comments}
              history={props.conversation.history}
              mentionees={props.conversation.mentionees}
              announce={announce}
            />
          </div>
          <div className="task-side">
            {props.time && <TaskTimer taskId={taskId} initial={props.time} announce={announce} />}
            <PeoplePanel
              task={task}
              people={people}
              meId={me.id}
              can={can}
              saveTask={saveTask}
              onChanged={readTask}
              onClaimed={onClaimed}
              announce={announce}
            />
            <CollaborationPanel
              taskId={taskId}
              meId={me.id}
              can={can}
              requests={requests}
              now={now}
              timeZone={me.timeZone}
              onRequestChanged={onRequestChanged}
              announce={announce}
            />
            {can.share && <InvitePanel taskId={taskId} />}
            <NotificationPrefs taskId={taskId} initial={props.prefs} announce={announce} />
            {can.delete && (
              <DeleteTask
                taskId={taskId}
                title={task.title}
                onDeleted={() => (closePanel ? closePanel() : router.push(props.listHref))}
              />
            )}
          </div>
        </div>
      )}
    </article>
  );
}
