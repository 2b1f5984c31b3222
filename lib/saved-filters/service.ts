import { AppError } from "../api/app-error";
import type { Actor } from "../auth/actor";
import { nowDate } from "../clock";
import { deleteSavedFilterRow, insertSavedFilter, listSavedFilterRows, updateSavedFilterRow, type SavedFilterRow } from "./repo";
import {
  SAVED_FILTERS_MAX,
  type CreateSavedFilterInput,
  type SavedFilterListOutput,
  type SavedFilterOutput,
  type UpdateSavedFilterInput,
} from "./schema";

/*
 * Saved filters: a person's named task list queries, shown in the list's sidebar. Each belongs to one user; another
 * user's id is not found.
 */

const notFound = () => new AppError("not_found", "No saved filter of yours has this id");

function toOutput(row: SavedFilterRow): SavedFilterOutput {
  return {
    id: row.id,
    name: row.name,
    query: row.query,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The user's saved filters, the oldest first (the order they were saved in). */
export async function listSavedFilters(actor: Actor): Promise<SavedFilterListOutput> {
  return { items: (await listSavedFilterRows(actor.userId)).map(toOutput) };
}

/** Saves a filter; 409 when the user keeps the most they may already. */
export async function createSavedFilter(actor: Actor, input: CreateSavedFilterInput): Promise<SavedFilterOutput> {
  const row = await insertSavedFilter(actor.userId, input.name, input.query, SAVED_FILTERS_MAX);
  if (!row) {
    throw new AppError("conflict", `You keep ${SAVED_FILTERS_MAX} saved filters, the most one may: delete one first`);
  }
  return toOutput(row);
}

export async function updateSavedFilter(actor: Actor, id: string, input: UpdateSavedFilterInput): Promise<SavedFilterOutput> {
  const row = await updateSavedFilterRow(actor.userId, id, input, nowDate());
  if (!row) throw notFound();
  return toOutput(row);
}

export async function deleteSavedFilter(actor: Actor, id: string): Promise<void> {
  if (!(await deleteSavedFilterRow(actor.userId, id))) throw notFound();
}
