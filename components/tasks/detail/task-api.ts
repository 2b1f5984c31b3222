import { useTranslations } from "next-intl";
import type { UpdateTaskInput } from "@/lib/tasks/schema";

/*
 * What the parts of the task page share: how they call the API, what they may do (decided on the server by
 * lib/permissions and passed down), and how they report back (a saved change, or the problem the API answered).
 */

/** What the signed-in user may do with the task (lib/permissions/tasks.ts, evaluated by the page). */
export interface TaskAbilities {
  edit: boolean;
  manage: boolean;
  delete: boolean;
  share: boolean;
  transfer: boolean;
  claim: boolean;
}

/** A task group, project or user group to choose from, with its name in the page's language. */
export interface Choice {
  id: string;
  name: string;
}

/** The outcome of a change: done, or the API's answer (a 400 names fields, others have a status only). */
export type SaveResult = { ok: true } | { ok: false; status: number; body: unknown };
/** Sends a change of the task (`PATCH /tasks/{id}`) and, when it is taken, shows the task as it now is. */
export type SaveTask = (patch: UpdateTaskInput) => Promise<SaveResult>;
/** Says something in the page's status region (role=status): "Saved", "Subtask added"... */
export type Announce = (message: string) => void;

/** Status 0: the request never got an answer (offline, server gone). */
const NO_ANSWER = { ok: false, status: 0, body: null } as const;

/** For `api.X(…).catch(noAnswer)`: no answer at all reads as status 0, so that every caller has one path. */
export function noAnswer(): typeof NO_ANSWER {
  return NO_ANSWER;
}

/** The message for an answer that is neither a success nor a validation problem, in the page's language. */
export function useFailureMessage(): (status: number) => string {
  const t = useTranslations("TaskDetail");
  return (status) => {
    if (status === 401) return t("errorSignedOut");
    if (status === 403) return t("errorForbidden");
    if (status === 404) return t("errorGone");
    if (status === 409) return t("errorConflict");
    if (status === 412) return t("errorStale");
    if (status === 429) return t("errorRateLimited");
    return t("errorGeneric");
  };
}
