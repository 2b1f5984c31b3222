"use client";

import { useFormatter, useTranslations } from "next-intl";
import { useId, useState } from "react";
import { fieldErrors } from "@/components/auth/call-api";
import { FormError } from "@/components/auth/form-field";
import type { TaskOutput, UpdateTaskInput } from "@/lib/tasks/schema";
import { PRIORITIES, TASK_STATUSES } from "@/lib/tasks/vocabulary";
import { AutosaveField } from "./autosave-field";
import { TagEditor } from "./tag-editor";
import { useFailureMessage, type Choice, type SaveTask, type TaskAbilities } from "./task-api";
import { instantOfWallInput, wallInputValue } from "./zoned-input";

/*
 * The task's own fields. Text and dates save when the user leaves the field, choices as soon as they change, tags
 * with each chip added or removed; the page's status region says "Saved". A field the API refuses (400) gets its
 * message next to it. Group, project and user group need the `manage` right; someone who may only read the
 * task sees every field as text.
 */

type Field =
  "title" | "description" | "status" | "priority" | "dueAt" | "startDate" | "groupId" | "projectId" | "userGroupId" | "tags";

export interface TaskChoices {
  groups: Choice[];
  projects: Choice[];
  userGroups: Choice[];
}

interface TaskEditorProps {
  task: TaskOutput;
  can: TaskAbilities;
  choices: TaskChoices;
  /** The user's time zone, in which dates are shown and entered. */
  timeZone: string;
  saveTask: SaveTask;
}

export function TaskEditor({ task, can, choices, timeZone, saveTask }: TaskEditorProps) {
  const t = useTranslations("TaskDetail");
  const fields = useTranslations("TaskFields");
  const failure = useFailureMessage();
  const id = useId();
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [formError, setFormError] = useState<string>();
  /** A choice being saved: the select shows it until the API answers (then the task, or the old value again). */
  const [choosing, setChoosing] = useState<Partial<Record<Field, string>>>({});

  if (!can.edit) return <TaskFieldsText task={task} choices={choices} />;

  const messages: Record<Field, string> = {
    title: t("errorTitle"),
    description: t("errorDescription"),
    status: t("errorChoice"),
    priority: t("errorChoice"),
    dueAt: t("errorDueAt"),
    startDate: t("errorStartDate"),
    groupId: t("errorGroup"),
    projectId: t("errorProject"),
    userGroupId: t("errorUserGroup"),
    tags: t("errorTags"),
  };

  async function save(field: Field, patch: UpdateTaskInput): Promise<boolean> {
    const result = await saveTask(patch);
    if (result.ok) {
      setErrors((current) => ({ ...current, [field]: undefined }));
      setFormError(undefined);
      return true;
    }
    if (result.status === 400) {
      const named = fieldErrors(result.body, messages);
      setErrors((current) => ({ ...current, [field]: undefined, ...named }));
      setFormError(Object.keys(named).length ? undefined : t("errorInvalid"));
    } else {
      setFormError(failure(result.status));
    }
    return false;
  }

  async function saveDue(value: string): Promise<boolean> {
    if (value === "") return removeDue();
    const dueAt = instantOfWallInput(value, timeZone);
    if (!dueAt) {
      setErrors((current) => ({ ...current, dueAt: messages.dueAt }));
      return false;
    }
    return save("dueAt", { dueAt });
  }

  /** A repeating task keeps its due date: the API refuses to remove it (400 at /dueAt), and says why here. */
  async function removeDue(): Promise<boolean> {
    const removed = await save("dueAt", { dueAt: null });
    if (!removed && task.recurrence)
      setErrors((current) => (current.dueAt ? { ...current, dueAt: t("errorDueRequired") } : current));
    return removed;
  }

  const select = (
    field: "status" | "priority" | "groupId" | "projectId" | "userGroupId",
    label: string,
    value: string,
    options: readonly { value: string; label: string }[],
  ) => (
    <div className="auth-field">
      <label htmlFor={`${id}-${field}`}>{label}</label>
      <select
        id={`${id}-${field}`}
        value={choosing[field] ?? value}
        aria-invalid={errors[field] ? true : undefined}
        aria-describedby={errors[field] ? `${id}-${field}-error` : undefined}
        onChange={async (event) => {
          const chosen = event.currentTarget.value;
          const nullable = field === "projectId" || field === "userGroupId";
          setChoosing((current) => ({ ...current, [field]: chosen }));
          await save(field, { [field]: nullable && chosen === "" ? null : chosen });
          setChoosing((current) => ({ ...current, [field]: undefined }));
        }}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      {errors[field] && (
        <p id={`${id}-${field}-error`} className="auth-field-error" role="alert">
          {errors[field]}
        </p>
      )}
    </div>
  );

  return (
    <section className="task-card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t("detailsTitle")}</h2>
      <FormError id={`${id}-form-error`} message={formError} />
      <AutosaveField
        label={t("titleLabel")}
        value={task.title}
        maxLength={500}
        error={errors.title}
        onSave={(title) => save("title", { title })}
      />
      <AutosaveField
        label={t("descriptionLabel")}
        kind="multiline"
        value={task.description}
        maxLength={20_000}
        error={errors.description}
        onSave={(description) => save("description", { description })}
      />
      <div className="task-field-pair">
        {select(
          "status",
          t("statusLabel"),
          task.status,
          TASK_STATUSES.map((status) => ({ value: status, label: fields(`status.${status}`) })),
        )}
        {select(
          "priority",
          t("priorityLabel"),
          task.priority,
          PRIORITIES.map((priority) => ({ value: priority, label: fields(`priority.${priority}`) })),
        )}
      </div>
      <div className="task-field-pair">
        <AutosaveField
          label={t("dueLabel")}
          kind="datetime-local"
          value={wallInputValue(task.dueAt, timeZone)}
          hint={t("dueHint", { timeZone: timeZone.replaceAll("_", " ") })}
          error={errors.dueAt}
          onSave={saveDue}
        >
          {task.dueAt && (
            <button type="button" className="task-text-button" onClick={() => void removeDue()}>
              {t("clearDue")}
            </button>
          )}
        </AutosaveField>
        <AutosaveField
          label={t("startLabel")}
          kind="date"
          value={task.startDate ?? ""}
          error={errors.startDate}
          onSave={(startDate) => save("startDate", { startDate: startDate || null })}
        >
          {task.startDate && (
            <button type="button" className="task-text-button" onClick={() => void save("startDate", { startDate: null })}>
              {t("clearStart")}
            </button>
          )}
        </AutosaveField>
      </div>
      {can.manage ? (
        <div className="task-field-pair">
          {choices.groups.some((group) => group.id === task.groupId) &&
            select(
              "groupId",
              t("groupLabel"),
              task.groupId,
              choices.groups.map((group) => ({ value: group.id, label: group.name })),
            )}
          {(choices.projects.length > 0 || task.projectId) &&
            select("projectId", t("projectLabel"), task.projectId ?? "", [
              { value: "", label: t("noProject") },
              ...choices.projects.map((project) => ({ value: project.id, label: project.name })),
            ])}
          {(choices.userGroups.length > 0 || task.userGroupId) &&
            select("userGroupId", t("userGroupLabel"), task.userGroupId ?? "", [
              { value: "", label: t("noUserGroup") },
              ...choices.userGroups.map((group) => ({ value: group.id, label: group.name })),
            ])}
        </div>
      ) : (
        <PlacesText task={task} choices={choices} />
      )}
      <TagEditor tags={task.tags} error={errors.tags} onSave={(tags) => save("tags", { tags })} />
    </section>
  );
}

/** Where the task sits (group, project), as text, for those who may not move it. Unknown names are left out. */
function PlacesText({ task, choices }: { task: TaskOutput; choices: TaskChoices }) {
  const t = useTranslations("TaskDetail");
  const group = choices.groups.find((candidate) => candidate.id === task.groupId);
  const project = choices.projects.find((candidate) => candidate.id === task.projectId);
  if (!group && !project) return null;
  return (
    <dl className="task-facts">
      {group && (
        <div>
          <dt>{t("groupLabel")}</dt>
          <dd>{group.name}</dd>
        </div>
      )}
      {project && (
        <div>
          <dt>{t("projectLabel")}</dt>
          <dd>{project.name}</dd>
        </div>
      )}
    </dl>
  );
}

/** Every field as text: for someone who may read the task but not change it. */
function TaskFieldsText({ task, choices }: { task: TaskOutput; choices: TaskChoices }) {
  const t = useTranslations("TaskDetail");
  const fields = useTranslations("TaskFields");
  const format = useFormatter();
  const id = useId();
  return (
    <section className="task-card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t("detailsTitle")}</h2>
      <p className="auth-hint">{t("readOnlyNote")}</p>
      <dl className="task-facts">
        <div className="task-facts-wide">
          <dt>{t("descriptionLabel")}</dt>
          <dd className="task-description" dir="auto">
            {task.description || t("noDescription")}
          </dd>
        </div>
        <div>
          <dt>{t("statusLabel")}</dt>
          <dd>{fields(`status.${task.status}`)}</dd>
        </div>
        <div>
          <dt>{t("priorityLabel")}</dt>
          <dd>{fields(`priority.${task.priority}`)}</dd>
        </div>
        <div>
          <dt>{t("dueLabel")}</dt>
          <dd>{task.dueAt ? format.dateTime(new Date(task.dueAt), { dateStyle: "full", timeStyle: "short" }) : t("noDue")}</dd>
        </div>
        <div>
          <dt>{t("startLabel")}</dt>
          <dd>
            {task.startDate
              ? format.dateTime(new Date(`${task.startDate}T12:00:00Z`), { dateStyle: "long", timeZone: "UTC" })
              : t("noStart")}
          </dd>
        </div>
        <div className="task-facts-wide">
          <dt>{t("tagsLabel")}</dt>
          <dd>
            {task.tags.length ? (
              <ul className="task-tags">
                {task.tags.map((tag) => (
                  <li key={tag} className="task-tag" dir="auto">
                    {tag}
                  </li>
                ))}
              </ul>
            ) : (
              t("noTags")
            )}
          </dd>
        </div>
      </dl>
      <PlacesText task={task} choices={choices} />
    </section>
  );
}
