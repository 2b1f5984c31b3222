import { AppError } from "../api/app-error";
import type { Actor } from "../auth/actor";
import type { Executor } from "../db/client";
import { findTaskPeople, taskAudience } from "./repo";
import type { TaskPeopleOutput } from "./schema";
import { getVisibleTask } from "./service";

/**
 * Who takes part in a task, by name, for anyone who may read it (the task page shows them; tasks carry only ids).
 * A task the actor cannot see is a 404, as everywhere else.
 */
export async function getTaskPeople(actor: Actor, taskId: string): Promise<TaskPeopleOutput> {
  await getVisibleTask(actor, taskId);
  const people = await findTaskPeople(taskId);
  // Deleted between the two reads.
  if (!people) throw new AppError("not_found", "No such task");
  return people;
}

/** The ids of everyone who can see a task (lib/permissions decides), e.g. the people a comment may mention. */
export function taskViewerIds(taskId: string, database?: Executor): Promise<string[]> {
  return taskAudience([taskId], database);
}
