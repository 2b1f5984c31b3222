"use client";

import { useTranslations } from "next-intl";
import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from "react";
import { invalidFields } from "@/components/auth/call-api";
import { languageTag, type Locale } from "@/lib/i18n/locales";
import { shiftRanges } from "@/lib/quick-add/literal";
import { parseQuickAdd, type QuickAddLists, type QuickAddResult, type QuickAddSpan, type Range } from "@/lib/quick-add/parse";
import { QUICK_ADD_INPUT_ID } from "./quick-add-id";
import type { NewListTask, WriteResult } from "./use-task-list";

const TITLE_MAX = 500;
const TEXT_MAX = 1000;
/** How long typing must pause before a screen reader hears what was understood. */
const ANNOUNCE_DELAY_MS = 700;

type Translate = ReturnType<typeof useTranslations<"TaskList">>;

/** What went wrong with a write, in the user's language (the API's own words are never shown). */
export function writeFailure(t: Translate, result: Extract<WriteResult, { ok: false }>): string {
  const status = result.answer?.status;
  if (status === undefined) return t("errorOffline");
  if (status === 401) return t("errorSignedOut");
  if (status === 403) return t("errorForbidden");
  if (status === 429) return t("errorRateLimited");
  return t("errorGeneric");
}

interface Props {
  locale: Locale;
  timeZone: string;
  /** Where a task without `+name` goes, for the hint. */
  groupName: string;
  /** The user's groups (every per-language name) and projects, for `+name`. */
  lists: QuickAddLists;
  /** Group and project names in the page's language, by id, to say which one `+name` meant. */
  listNames: Readonly<Record<string, string>>;
  onAdd(task: NewListTask): Promise<WriteResult>;
}

/**
 * "Add a task": one field at the top of the list that understands what people type (lib/quick-add/parse.ts):
 * "Buy milk tomorrow at 9 !high #home +Shopping". What it recognises is highlighted in the field and listed
 * under it in words (for screen readers too, announced when typing pauses); a click on one of those, or Backspace
 * right after it, undoes it and its words stay in the title. Enter adds the task with the recognised fields to
 * `+name`'s group or project, else the group being shown, else the user's first group. The field empties at once
 * and the task shows as a draft; a failure puts the text back and says why. Disabled until hydrated, so that
 * nothing typed before is lost to a native form submission.
 */
export function QuickAdd({ locale, timeZone, groupName, lists, listNames, onAdd }: Props) {
  const t = useTranslations("TaskList");
  const id = useId();
  const [hydrated, setHydrated] = useState(false);
  const [text, setText] = useState("");
  const [literal, setLiteral] = useState<Range[]>([]);
  const [error, setError] = useState<string>();
  const [added, setAdded] = useState<string>();
  const [announced, setAnnounced] = useState("");
  const input = useRef<HTMLInputElement>(null);
  const mirror = useRef<HTMLDivElement>(null);
  useEffect(() => setHydrated(true), []);

  const parsed = useMemo(
    () => (hydrated && text.trim() ? parseQuickAdd(text, { locale, now: new Date(), timeZone, lists, literal }) : null),
    [hydrated, text, literal, locale, timeZone, lists],
  );
  const meaning = useMeaning(locale, timeZone, listNames);
  const spans = parsed?.spans ?? [];
  const summary =
    parsed && spans.length
      ? t("quickAddUnderstood", {
          list: listOf(
            locale,
            spans.map((span) => meaning(span, parsed)),
          ),
        })
      : "";

  // Screen readers hear what was understood once typing pauses, not at every key.
  useEffect(() => {
    const timer = setTimeout(() => setAnnounced(summary), ANNOUNCE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [summary]);

  const syncScroll = () => {
    if (mirror.current && input.current) mirror.current.scrollLeft = input.current.scrollLeft;
  };
  useEffect(syncScroll);

  function change(next: string) {
    setLiteral((current) => shiftRanges(current, text, next));
    setText(next);
    if (error) setError(undefined);
  }

  function undo(span: QuickAddSpan) {
    setLiteral((current) => [...current, { start: span.start, end: span.end }]);
    setAnnounced(t("quickAddUndone", { text: span.text }));
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key !== "Backspace" || !parsed) return;
    const { selectionStart, selectionEnd } = event.currentTarget;
    if (selectionStart === null || selectionStart !== selectionEnd) return;
    const span = spans.find((candidate) => candidate.end === selectionStart);
    if (!span) return;
    // The first Backspace right after a recognised stretch undoes it; the next one deletes as usual.
    event.preventDefault();
    undo(span);
  }

  async function add(typed: string, undone: Range[], result: QuickAddResult) {
    setText("");
    setLiteral([]);
    setError(undefined);
    setAdded(undefined);
    const task: NewListTask = {
      title: result.title,
      tags: result.tags,
      ...(result.dueAt && { dueAt: result.dueAt }),
      ...(result.startDate && { startDate: result.startDate }),
      ...(result.priority && { priority: result.priority }),
      ...(result.recurrence && { recurrence: result.recurrence }),
      ...(result.groupId && { groupId: result.groupId }),
      ...(result.projectId && { projectId: result.projectId }),
    };
    const answer = await onAdd(task);
    if (answer.ok) return setAdded(t("quickAddDone", { title: result.title }));
    setText((current) => current || typed);
    setLiteral((current) => (current.length ? current : undone));
    const titleRefused = answer.answer?.status === 400 && invalidFields(answer.answer.body).includes("title");
    setError(titleRefused ? t("errorTitle") : writeFailure(t, answer));
  }

  return (
    <form
      className="quick-add"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        const result = text.trim() ? parseQuickAdd(text, { locale, now: new Date(), timeZone, lists, literal }) : null;
        if (!result?.title) return setError(t(text.trim() ? "errorTitleOnlyDetails" : "errorTitleEmpty"));
        if (result.title.length > TITLE_MAX) return setError(t("errorTitle"));
        void add(text, literal, result);
      }}
    >
      <label htmlFor={QUICK_ADD_INPUT_ID}>{t("quickAddLabel")}</label>
      <div className="quick-add-row">
        <div className="quick-add-field">
          <div className="quick-add-mirror" ref={mirror} aria-hidden="true" dir="auto">
            <span>{highlighted(text, spans)}</span>
          </div>
          <input
            id={QUICK_ADD_INPUT_ID}
            ref={input}
            name="title"
            type="text"
            autoComplete="off"
            dir="auto"
            maxLength={TEXT_MAX}
            placeholder={t("quickAddPlaceholder")}
            value={text}
            disabled={!hydrated}
            onChange={(event) => change(event.currentTarget.value)}
            onKeyDown={onKeyDown}
            onScroll={syncScroll}
            onSelect={syncScroll}
            aria-invalid={error ? true : undefined}
            aria-describedby={`${id}-hint${summary ? ` ${id}-summary` : ""}${error ? ` ${id}-error` : ""}`}
          />
        </div>
        <button className="button primary" type="submit" disabled={!hydrated}>
          {t("quickAddButton")}
        </button>
      </div>
      {parsed && spans.length > 0 && (
        <ul className="quick-add-tokens" aria-label={t("quickAddRecognized")}>
          {spans.map((span) => {
            const what = meaning(span, parsed);
            return (
              <li key={`${span.start}-${span.kind}`}>
                <button
                  type="button"
                  className={`quick-add-token quick-add-${span.kind}`}
                  onClick={() => {
                    undo(span);
                    input.current?.focus();
                  }}
                >
                  <span className="quick-add-token-text" dir="auto">
                    {span.text}
                  </span>{" "}
                  <span className="quick-add-token-meaning" dir="auto">
                    {what}
                  </span>{" "}
                  <span className="visually-hidden">{t("quickAddUndo")}</span>
                  <span className="quick-add-token-undo" aria-hidden="true">
                    ×
                  </span>
                </button>
              </li>
            );
          })}
        </ul>
      )}
      {parsed?.notes.map((note) => (
        <p key={`${note.start}-${note.code}`} className="quick-add-note" dir="auto">
          {note.code === "recurrence_unsupported"
            ? t("quickAddNoteRecurrence", { text: note.text })
            : t("quickAddNoteList", { text: note.text })}
        </p>
      ))}
      <p id={`${id}-hint`} className="quick-add-hint">
        {t("quickAddHint", { group: groupName })} {t("quickAddSyntax")}
      </p>
      <p id={`${id}-summary`} className="visually-hidden">
        {summary}
      </p>
      <p id={`${id}-error`} className="tasks-error" role="alert">
        {error}
      </p>
      <p className="visually-hidden" role="status">
        {added ?? announced}
      </p>
    </form>
  );
}

/** The text with each recognised span in a <mark>, for the highlight layer under the field. */
function highlighted(text: string, spans: readonly QuickAddSpan[]) {
  const parts = [];
  let from = 0;
  for (const span of spans) {
    if (span.start > from) parts.push(text.slice(from, span.start));
    parts.push(
      <mark key={span.start} className={`quick-add-${span.kind}`}>
        {text.slice(span.start, span.end)}
      </mark>,
    );
    from = span.end;
  }
  parts.push(text.slice(from));
  // A trailing space keeps the layer as wide as the field's text when it ends in spaces.
  return [...parts, " "];
}

function listOf(locale: Locale, items: string[]): string {
  return new Intl.ListFormat(languageTag(locale), { type: "unit" }).format(items);
}

/** What a span set, in words: "Due Fri 27 Mar, 9:00", "Repeats every 2 weeks", "Group Work". */
function useMeaning(locale: Locale, timeZone: string, listNames: Readonly<Record<string, string>>) {
  const t = useTranslations("TaskList");
  const tf = useTranslations("TaskFields");
  return useMemo(() => {
    const tag = languageTag(locale);
    const withTime = new Intl.DateTimeFormat(tag, {
      timeZone,
      weekday: "short",
      day: "numeric",
      month: "short",
      hour: "numeric",
      minute: "2-digit",
    });
    const dateOnly = new Intl.DateTimeFormat(tag, { timeZone, weekday: "short", day: "numeric", month: "short" });
    const clock = new Intl.DateTimeFormat("en-GB", { timeZone, hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
    /** A due date without a time is due at 23:59 (and a start at 00:00): say only the date then. */
    const when = (iso: string, wholeDay: string) => {
      const instant = new Date(iso);
      return clock.format(instant) === wholeDay ? dateOnly.format(instant) : withTime.format(instant);
    };
    return (span: QuickAddSpan, result: QuickAddResult): string => {
      switch (span.kind) {
        case "due":
          return t("quickAddMeaningDue", { when: result.dueAt ? when(result.dueAt, "23:59") : "" });
        case "start":
          return t("quickAddMeaningStart", { when: result.startAt ? when(result.startAt, "00:00") : "" });
        case "recurrence": {
          const rule = result.recurrence;
          if (!rule) return "";
          const yearly = rule.frequency === "monthly" && rule.interval % 12 === 0;
          const key = yearly
            ? "quickAddMeaningRepeatYearly"
            : rule.frequency === "daily"
              ? "quickAddMeaningRepeatDaily"
              : rule.frequency === "weekly"
                ? "quickAddMeaningRepeatWeekly"
                : "quickAddMeaningRepeatMonthly";
          const interval = yearly ? rule.interval / 12 : rule.interval;
          return `${t(key, { interval })}${rule.anchor === "completion" ? ` ${t("quickAddMeaningAfterDone")}` : ""}`;
        }
        case "priority":
          return tf("priorityLabel", { priority: result.priority ? tf(`priority.${result.priority}`) : "" });
        case "tag":
          return t("quickAddMeaningTag", { tag: span.text.slice(1) });
        case "group":
          return t("quickAddMeaningGroup", { name: listNames[result.groupId ?? ""] ?? span.text.slice(1) });
        case "project":
          return t("quickAddMeaningProject", { name: listNames[result.projectId ?? ""] ?? span.text.slice(1) });
      }
    };
  }, [locale, timeZone, listNames, t, tf]);
}
