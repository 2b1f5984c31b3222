"use client";

import { useFormatter, useTranslations } from "next-intl";
import { useCallback, useId, useMemo, useRef, useState, type KeyboardEvent } from "react";
import { invalidFields } from "@/components/auth/call-api";
import { FormError } from "@/components/auth/form-field";
import { useLiveEvents, type LiveEvent } from "@/components/realtime/use-live-events";
import { noAnswer, useFailureMessage, type Announce } from "@/components/tasks/detail/task-api";
import { api, type Schemas } from "@/lib/api-client/client";
import type { CommentListOutput, CommentOutput } from "@/lib/comments/schema";
import { CommentBody } from "./comment-body";

/** As the API sends them: a change's `from` and `to` may be absent (a value that was not set). */
type HistoryOutput = Schemas["TaskHistory"];
type HistoryEntry = Schemas["TaskHistoryEntry"];

/*
 * The task's conversation and history as one timeline, oldest first: comments (GET /tasks/{id}/comments) mixed with
 * what happened to the task (GET /tasks/{id}/activity), a form to comment with an @ autocomplete of the people who
 * can see the task (GET /tasks/{id}/mentionees), and edit/delete for one's own comments (delete also for the task's owner). It follows the page's
 * socket: someone else's comment, edit or deletion (`comment.*`) shows at once, and a change to the task (`task.*`)
 * brings the newest history again.
 */

interface Person {
  id: string;
  name: string;
}

interface TaskTimelineProps {
  taskId: string;
  meId: string;
  /** The task's owner may delete anyone's comment on it. */
  canDeleteAny: boolean;
  comments: CommentListOutput;
  history: HistoryOutput;
  /**
   * Who can be mentioned (GET /tasks/{id}/mentionees): everyone who can see the task, its team's, project's and
   * family's members included; read again when the task changes.
   */
  mentionees: Person[];
  announce: Announce;
}

type Item = { kind: "comment"; at: string; comment: CommentOutput } | { kind: "history"; at: string; entry: HistoryEntry };

/** Comment entries of the history are the comments themselves; only a deletion is told there. */
const SHOWN_HISTORY = (entry: HistoryEntry) => !["commented", "commentEdited"].includes(entry.kind);

/** The events after which the history has something new to tell (comments themselves come with theirs). */
const HISTORY_EVENTS = ["task.updated", "task.moved", "task.completed", "comment.deleted"];

/** The `@word` being typed just before the caret, if any. */
function mentionQuery(text: string, caret: number): { start: number; query: string } | null {
  const match = /(^|\s)@([^\s@]{0,40})$/u.exec(text.slice(0, caret));
  return match ? { start: caret - match[2]!.length - 1, query: match[2]! } : null;
}

export function TaskTimeline(props: TaskTimelineProps) {
  const t = useTranslations("TaskTimeline");
  const failure = useFailureMessage();
  const id = useId();
  const [comments, setComments] = useState(props.comments.items);
  const [commentCursor, setCommentCursor] = useState(props.comments.nextCursor);
  const [history, setHistory] = useState(props.history.items);
  const [historyCursor, setHistoryCursor] = useState(props.history.nextCursor);
  const [people, setPeople] = useState(props.mentionees);

  const items = useMemo<Item[]>(() => {
    const all: Item[] = [
      ...comments.map((comment): Item => ({ kind: "comment", at: comment.createdAt, comment })),
      ...history.filter(SHOWN_HISTORY).map((entry): Item => ({ kind: "history", at: entry.at, entry })),
    ];
    return all.sort((a, b) => a.at.localeCompare(b.at));
  }, [comments, history]);

  async function moreComments() {
    if (!commentCursor) return;
    const answer = await api
      .GET("/api/v1/tasks/{id}/comments", { params: { path: { id: props.taskId }, query: { cursor: commentCursor } } })
      .catch(noAnswer);
    if (!answer.ok) return props.announce(failure(answer.status));
    const page = answer.body;
    setComments((current) => [...current, ...page.items.filter((item) => !current.some((other) => other.id === item.id))]);
    setCommentCursor(page.nextCursor);
  }

  async function olderHistory() {
    if (!historyCursor) return;
    const answer = await api
      .GET("/api/v1/tasks/{id}/activity", { params: { path: { id: props.taskId }, query: { cursor: historyCursor } } })
      .catch(noAnswer);
    if (!answer.ok) return props.announce(failure(answer.status));
    const page = answer.body;
    setHistory((current) => [...current, ...page.items]);
    setHistoryCursor(page.nextCursor);
  }

  /** Shows a comment as the API or an event has it: added if new, replaced unless a newer version is shown. */
  const showComment = useCallback(
    (shown: CommentOutput) =>
      setComments((current) =>
        current.some((comment) => comment.id === shown.id)
          ? current.map((comment) => (comment.id === shown.id && comment.updatedAt <= shown.updatedAt ? shown : comment))
          : [...current, shown],
      ),
    [],
  );

  /** The newest history again, merged with what is shown (older pages stay). */
  const readNewestHistory = useCallback(async () => {
    const answer = await api.GET("/api/v1/tasks/{id}/activity", { params: { path: { id: props.taskId } } }).catch(noAnswer);
    if (!answer.ok) return;
    const newest = answer.body.items;
    setHistory((current) => [...newest, ...current.filter((entry) => !newest.some((other) => other.id === entry.id))]);
  }, [props.taskId]);

  /** The first page of comments again, as after a reload (what was deleted meanwhile goes too). */
  const readComments = useCallback(async () => {
    const answer = await api.GET("/api/v1/tasks/{id}/comments", { params: { path: { id: props.taskId } } }).catch(noAnswer);
    if (!answer.ok) return;
    setComments(answer.body.items);
    setCommentCursor(answer.body.nextCursor);
  }, [props.taskId]);

  /** Who may be mentioned, again: the task may have moved to another team, project or group, or gained people. */
  const readMentionees = useCallback(async () => {
    const answer = await api.GET("/api/v1/tasks/{id}/mentionees", { params: { path: { id: props.taskId } } }).catch(noAnswer);
    if (answer.ok) setPeople(answer.body.items);
  }, [props.taskId]);

  useLiveEvents({
    onEvent(event: LiveEvent) {
      if (event.taskId !== props.taskId) return;
      const comment = (event.data as { comment?: CommentOutput }).comment;
      if ((event.type === "comment.created" || event.type === "comment.updated") && comment) return showComment(comment);
      if (event.type === "comment.deleted") {
        const { commentId } = event.data as { commentId: string };
        setComments((current) => current.filter((other) => other.id !== commentId));
      }
      if (event.type === "task.updated") void readMentionees();
      if (HISTORY_EVENTS.includes(event.type) && !history.some((entry) => entry.id === String(event.id))) {
        void readNewestHistory();
      }
    },
    onResync() {
      void Promise.all([readComments(), readNewestHistory(), readMentionees()]);
    },
  });

  async function remove(comment: CommentOutput) {
    const answer = await api.DELETE("/api/v1/comments/{id}", { params: { path: { id: comment.id } } }).catch(noAnswer);
    if (!answer.ok && answer.status !== 404) return props.announce(failure(answer.status));
    setComments((current) => current.filter((other) => other.id !== comment.id));
    props.announce(t("deleted"));
  }

  return (
    <section className="task-card task-timeline" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t("title")}</h2>
      {historyCursor && (
        <button type="button" className="task-text-button" onClick={() => void olderHistory()}>
          {t("loadOlder")}
        </button>
      )}
      {items.length === 0 ? (
        <p className="auth-hint">{t("empty")}</p>
      ) : (
        <ol className="timeline-list">
          {items.map((item) =>
            item.kind === "comment" ? (
              <CommentItem
                key={`c-${item.comment.id}`}
                comment={item.comment}
                mine={item.comment.author.id === props.meId}
                canDelete={item.comment.author.id === props.meId || props.canDeleteAny}
                people={people}
                onSaved={(updated) => {
                  showComment(updated);
                  props.announce(t("saved"));
                }}
                onDelete={() => void remove(item.comment)}
              />
            ) : (
              <HistoryItem key={`h-${item.entry.id}`} entry={item.entry} />
            ),
          )}
        </ol>
      )}
      {commentCursor && (
        <button type="button" className="task-text-button" onClick={() => void moreComments()}>
          {t("loadMoreComments")}
        </button>
      )}
      <CommentForm
        taskId={props.taskId}
        people={people}
        onPosted={(comment) => {
          showComment(comment);
          props.announce(t("posted"));
        }}
      />
    </section>
  );
}

function When({ at }: { at: string }) {
  const format = useFormatter();
  return (
    <time className="timeline-time" dateTime={at}>
      {format.dateTime(new Date(at), { dateStyle: "medium", timeStyle: "short" })}
    </time>
  );
}

function CommentItem(props: {
  comment: CommentOutput;
  mine: boolean;
  canDelete: boolean;
  people: Person[];
  onSaved: (comment: CommentOutput) => void;
  onDelete: () => void;
}) {
  const t = useTranslations("TaskTimeline");
  const [editing, setEditing] = useState(false);
  const { comment } = props;
  const author = comment.author.name || t("someone");
  return (
    <li className="timeline-comment">
      <p className="timeline-meta">
        <strong dir="auto">{author}</strong> <When at={comment.createdAt} />
        {comment.editedAt && <span className="timeline-edited"> · {t("edited")}</span>}
      </p>
      {editing ? (
        <CommentEditor
          comment={comment}
          people={props.people}
          onSaved={(updated) => {
            setEditing(false);
            props.onSaved(updated);
          }}
          onCancel={() => setEditing(false)}
        />
      ) : (
        <CommentBody body={comment.body} />
      )}
      {!editing && (props.mine || props.canDelete) && (
        <p className="task-buttons">
          {props.mine && (
            <button type="button" className="task-text-button" onClick={() => setEditing(true)}>
              {t("edit")}
              <span className="visually-hidden"> {t("commentBy", { name: author })}</span>
            </button>
          )}
          {props.canDelete && (
            <button type="button" className="task-text-button" onClick={props.onDelete}>
              {t("delete")}
              <span className="visually-hidden"> {t("commentBy", { name: author })}</span>
            </button>
          )}
        </p>
      )}
    </li>
  );
}

function HistoryItem({ entry }: { entry: HistoryEntry }) {
  const t = useTranslations("TaskTimeline");
  const tf = useTranslations("TaskFields");
  const format = useFormatter();
  const name = entry.actor?.name || t("someone");
  const names = (value: unknown) =>
    format.list(
      (Array.isArray(value) ? (value as Person[]) : []).map((person) => person.name || t("someone")),
      { type: "conjunction" },
    );
  const added = (from: unknown, to: unknown) =>
    (to as Person[]).filter((person) => !(from as Person[]).some((other) => other.id === person.id));
  const value = (field: string, raw: unknown): string => {
    if (raw === null || raw === undefined || raw === "") return t("none");
    if (field === "status") return tf(`status.${String(raw)}` as "status.todo");
    if (field === "priority") return tf(`priority.${String(raw)}` as "priority.low");
    if (field === "dueAt") return format.dateTime(new Date(String(raw)), { dateStyle: "medium", timeStyle: "short" });
    if (field === "startDate")
      return format.dateTime(new Date(`${String(raw)}T12:00:00Z`), { dateStyle: "medium", timeZone: "UTC" });
    if (field === "tags") return Array.isArray(raw) && raw.length ? format.list(raw.map(String)) : t("none");
    return String(raw);
  };

  const lines: string[] = [];
  if (entry.kind === "created") lines.push(t("created", { name }));
  if (entry.kind === "completed") lines.push(t("completed", { name }));
  if (entry.kind === "moved") lines.push(t("moved", { name }));
  if (entry.kind === "commentDeleted") lines.push(t("commentDeleted", { name }));
  for (const change of entry.changes) {
    if (entry.kind === "completed" && change.field === "status") continue;
    if (change.field === "assignees" || change.field === "collaborators") {
      const gained = added(change.from, change.to);
      const lost = added(change.to, change.from);
      const [on, off] = change.field === "assignees" ? (["assigned", "unassigned"] as const) : (["shared", "unshared"] as const);
      if (gained.length) lines.push(t(on, { name, people: names(gained) }));
      if (lost.length) lines.push(t(off, { name, people: names(lost) }));
      continue;
    }
    if (["title", "status", "priority", "dueAt", "startDate"].includes(change.field)) {
      lines.push(
        t("changedFromTo", {
          name,
          field: t(`field.${change.field}` as "field.title"),
          from: value(change.field, change.from),
          to: value(change.field, change.to),
        }),
      );
    } else if (change.field === "tags") {
      lines.push(t("changedTags", { name, to: value("tags", change.to) }));
    } else {
      lines.push(t("changed", { name, field: t(`field.${change.field}` as "field.title") }));
    }
  }
  if (lines.length === 0) return null;
  return (
    <li className="timeline-event">
      {lines.map((line, index) => (
        <p key={index} dir="auto">
          {line}
        </p>
      ))}
      <When at={entry.at} />
    </li>
  );
}

/** A textarea with an @ autocomplete: picking someone writes `@Name` and mentions them. */
function MentionTextarea(props: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  people: Person[];
  invalid: boolean;
  errorId?: string;
  hintId?: string;
}) {
  const t = useTranslations("TaskTimeline");
  const id = useId();
  const area = useRef<HTMLTextAreaElement>(null);
  const [query, setQuery] = useState<{ start: number; query: string } | null>(null);
  const [active, setActive] = useState(0);
  const matches = query
    ? props.people.filter((person) => person.name.toLocaleLowerCase().includes(query.query.toLocaleLowerCase())).slice(0, 8)
    : [];
  const open = matches.length > 0;

  function track(text: string, caret: number) {
    setQuery(mentionQuery(text, caret));
    setActive(0);
  }

  function pick(person: Person) {
    if (!query) return;
    const caret = area.current?.selectionStart ?? props.value.length;
    const inserted = `@${person.name} `;
    const next = props.value.slice(0, query.start) + inserted + props.value.slice(caret);
    props.onChange(next);
    setQuery(null);
    const position = query.start + inserted.length;
    requestAnimationFrame(() => {
      area.current?.focus();
      area.current?.setSelectionRange(position, position);
    });
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (!open) return;
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      const step = event.key === "ArrowDown" ? 1 : -1;
      setActive((current) => (current + step + matches.length) % matches.length);
    } else if (event.key === "Enter" || event.key === "Tab") {
      event.preventDefault();
      pick(matches[active]!);
    } else if (event.key === "Escape") {
      event.preventDefault();
      setQuery(null);
    }
  }

  return (
    <div className="mention-field">
      <label className="task-field-label" htmlFor={`${id}-text`}>
        {props.label}
      </label>
      <textarea
        id={`${id}-text`}
        ref={area}
        rows={3}
        dir="auto"
        value={props.value}
        aria-invalid={props.invalid || undefined}
        aria-describedby={[props.hintId, props.errorId].filter(Boolean).join(" ") || undefined}
        aria-autocomplete="list"
        aria-controls={open ? `${id}-people` : undefined}
        aria-activedescendant={open ? `${id}-person-${active}` : undefined}
        onChange={(event) => {
          props.onChange(event.target.value);
          track(event.target.value, event.target.selectionStart);
        }}
        onKeyDown={onKeyDown}
        onBlur={() => setTimeout(() => setQuery(null), 150)}
      />
      {open && (
        <ul className="mention-list" id={`${id}-people`} role="listbox" aria-label={t("mentionSuggestions")}>
          {matches.map((person, index) => (
            <li
              key={person.id}
              id={`${id}-person-${index}`}
              role="option"
              aria-selected={index === active}
              dir="auto"
              onMouseDown={(event) => {
                event.preventDefault();
                pick(person);
              }}
            >
              {person.name}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** The people whose `@Name` the text still holds. */
function mentionedIn(text: string, people: Person[]): string[] {
  return people.filter((person) => person.name && text.includes(`@${person.name}`)).map((person) => person.id);
}

function useProblemMessage(): (status: number, body: unknown) => string {
  const t = useTranslations("TaskTimeline");
  const failure = useFailureMessage();
  return (status, body) => {
    const fields = invalidFields(body);
    if (status === 400 && fields.some((field) => field.startsWith("mentions"))) return t("errorMention");
    if (status === 400 && fields.includes("body")) return t("errorBody");
    return failure(status);
  };
}

function CommentForm(props: { taskId: string; people: Person[]; onPosted: (comment: CommentOutput) => void }) {
  const t = useTranslations("TaskTimeline");
  const problem = useProblemMessage();
  const id = useId();
  const [text, setText] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();

  async function submit() {
    if (!text.trim()) return setError(t("errorEmpty"));
    setBusy(true);
    setError(undefined);
    const answer = await api
      .POST("/api/v1/tasks/{id}/comments", {
        params: { path: { id: props.taskId } },
        body: { body: text, mentions: mentionedIn(text, props.people) },
      })
      .catch(noAnswer);
    setBusy(false);
    if (answer.ok) {
      setText("");
      props.onPosted(answer.body);
    } else {
      setError(problem(answer.status, answer.body));
    }
  }

  return (
    <form
      className="comment-form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <MentionTextarea
        label={t("commentLabel")}
        value={text}
        onChange={setText}
        people={props.people}
        invalid={Boolean(error)}
        hintId={`${id}-hint`}
        errorId={error ? `${id}-error` : undefined}
      />
      <p className="auth-hint" id={`${id}-hint`}>
        {t("commentHint")}
      </p>
      {error && <FormError id={`${id}-error`} message={error} />}
      <p className="task-buttons">
        <button type="submit" className="button" disabled={busy}>
          {busy ? t("sending") : t("send")}
        </button>
      </p>
    </form>
  );
}

function CommentEditor(props: {
  comment: CommentOutput;
  people: Person[];
  onSaved: (comment: CommentOutput) => void;
  onCancel: () => void;
}) {
  const t = useTranslations("TaskTimeline");
  const problem = useProblemMessage();
  const id = useId();
  const [text, setText] = useState(props.comment.body);
  const [error, setError] = useState<string>();
  const known = [...props.people, ...props.comment.mentions.filter((person) => !props.people.some((p) => p.id === person.id))];

  async function save() {
    if (!text.trim()) return setError(t("errorEmpty"));
    const answer = await api
      .PATCH("/api/v1/comments/{id}", {
        params: { path: { id: props.comment.id } },
        body: { body: text, mentions: mentionedIn(text, known) },
      })
      .catch(noAnswer);
    if (answer.ok) props.onSaved(answer.body);
    else setError(problem(answer.status, answer.body));
  }

  return (
    <form
      className="comment-form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <MentionTextarea
        label={t("editLabel")}
        value={text}
        onChange={setText}
        people={known}
        invalid={Boolean(error)}
        errorId={error ? `${id}-error` : undefined}
      />
      {error && <FormError id={`${id}-error`} message={error} />}
      <p className="task-buttons">
        <button type="submit" className="button">
          {t("save")}
        </button>
        <button type="button" className="task-text-button" onClick={props.onCancel}>
          {t("cancel")}
        </button>
      </p>
    </form>
  );
}
