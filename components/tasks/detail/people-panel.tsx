"use client";

import { useTranslations } from "next-intl";
import { useId, useState } from "react";
import { FormError } from "@/components/auth/form-field";
import type { ClaimOutput } from "@/lib/collaboration/schema";
import type { TaskOutput, TaskPeopleOutput } from "@/lib/tasks/schema";
import { CloseIcon } from "./detail-icons";
import { noAnswer, useFailureMessage, type Announce, type SaveTask, type TaskAbilities } from "./task-api";
import { api } from "@/lib/api-client/client";

/*
 * Who takes part in the task, by name (`GET /tasks/{id}/people`): its owner, assignees, collaborators and the
 * user group it is assigned to. The owner assigns themself or takes assignees off; a collaborator may leave and
 * the owner may remove one; someone with the claim right takes a task nobody is assigned to.
 */

type Person = TaskPeopleOutput["owner"];

interface PeoplePanelProps {
  task: TaskOutput;
  people: TaskPeopleOutput;
  meId: string;
  can: TaskAbilities;
  saveTask: SaveTask;
  /** Reads the task and its people again after a change made outside PATCH /tasks/{id}. */
  onChanged(): Promise<void>;
  onClaimed(result: ClaimOutput): void;
  announce: Announce;
}

export function PeoplePanel({ task, people, meId, can, saveTask, onChanged, onClaimed, announce }: PeoplePanelProps) {
  const t = useTranslations("TaskDetail");
  const id = useId();
  const failure = useFailureMessage();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  async function run(action: () => Promise<string | null>) {
    if (busy) return;
    setBusy(true);
    setError(undefined);
    const problem = await action();
    setBusy(false);
    if (problem) setError(problem);
  }

  const setAssignees = (assigneeIds: string[]) =>
    run(async () => {
      const result = await saveTask({ assigneeIds });
      return result.ok ? null : failure(result.status);
    });

  const claim = () =>
    run(async () => {
      const answer = await api.POST("/api/v1/tasks/{id}/claim", { params: { path: { id: task.id } } }).catch(noAnswer);
      if (answer.ok) {
        onClaimed(answer.body);
        announce(t("claimed"));
        return null;
      }
      return answer.status === 409 ? t("errorAlreadyClaimed") : failure(answer.status);
    });

  const removeCollaborator = (person: Person) =>
    run(async () => {
      const answer = await api
        .DELETE("/api/v1/tasks/{id}/collaborators/{userId}", { params: { path: { id: task.id, userId: person.id } } })
        .catch(noAnswer);
      if (!answer.ok) return failure(answer.status);
      announce(person.id === meId ? t("leftTask") : t("collaboratorRemoved", { name: person.name }));
      await onChanged();
      return null;
    });

  const name = (person: Person) => (person.id === meId ? t("you", { name: person.name }) : person.name);
  const amAssignee = task.assigneeIds.includes(meId);

  return (
    <section className="task-card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t("peopleTitle")}</h2>
      <FormError id={`${id}-error`} message={error} />
      <dl className="task-people">
        <div>
          <dt>{t("ownerLabel")}</dt>
          <dd>{name(people.owner)}</dd>
        </div>
        <div>
          <dt>{t("assigneesLabel")}</dt>
          <dd>
            {people.assignees.length === 0 ? (
              <span className="auth-hint">{t("noAssignees")}</span>
            ) : (
              <ul className="task-person-list">
                {people.assignees.map((person) => (
                  <li key={person.id}>
                    <span dir="auto">{name(person)}</span>
                    {can.manage && (
                      <button
                        type="button"
                        className="icon-button"
                        disabled={busy}
                        aria-label={t("unassign", { name: person.name })}
                        onClick={() => void setAssignees(task.assigneeIds.filter((assignee) => assignee !== person.id))}
                      >
                        <CloseIcon size={16} />
                      </button>
                    )}
                  </li>
                ))}
              </ul>
            )}
            <div className="task-buttons">
              {can.manage && !amAssignee && (
                <button
                  type="button"
                  className="button"
                  disabled={busy}
                  onClick={() => void setAssignees([...task.assigneeIds, meId])}
                >
                  {t("assignMe")}
                </button>
              )}
              {can.claim && task.assigneeIds.length === 0 && (
                <button type="button" className="button" disabled={busy} onClick={() => void claim()}>
                  {t("claim")}
                </button>
              )}
            </div>
          </dd>
        </div>
        <div>
          <dt>{t("collaboratorsLabel")}</dt>
          <dd>
            {people.collaborators.length === 0 ? (
              <span className="auth-hint">{t("noCollaborators")}</span>
            ) : (
              <ul className="task-person-list">
                {people.collaborators.map((person) => (
                  <li key={person.id}>
                    <span dir="auto">{name(person)}</span>
                    {(can.manage || person.id === meId) && (
                      <button
                        type="button"
                        className={person.id === meId ? "button" : "icon-button"}
                        disabled={busy}
                        aria-label={person.id === meId ? undefined : t("removeCollaborator", { name: person.name })}
                        onClick={() => void removeCollaborator(person)}
                      >
                        {person.id === meId ? t("leave") : <CloseIcon size={16} />}
                      </button>
                    )}
                  </li>
                ))}
              </ul>
            )}
          </dd>
        </div>
        <div>
          <dt>{t("userGroupLabel")}</dt>
          <dd dir="auto">{people.userGroup?.name ?? <span className="auth-hint">{t("noUserGroupAssigned")}</span>}</dd>
        </div>
      </dl>
    </section>
  );
}
