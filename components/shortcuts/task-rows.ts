/*
 * The task list as the keyboard shortcuts see it: rows marked `data-task-row` (the task's id), each with its
 * checkbox (`data-task-toggle`) and the link to the task (`data-task-open`), as components/tasks/list/task-row.tsx
 * renders them. The selected row is the one holding the focus (its link gets it, so that the selection is seen,
 * read out and scrolled into view); it also carries `data-selected` (shortcuts.css outlines it), and its id is
 * remembered in case the list renders the row anew.
 */

const ROW = "[data-task-row]";
let selectedId: string | null = null;

function rows(): HTMLElement[] {
  return Array.from(document.querySelectorAll<HTMLElement>(ROW)).filter((row) => row.offsetParent !== null);
}

function selectedRow(): HTMLElement | null {
  const focused = document.activeElement?.closest<HTMLElement>(ROW);
  if (focused) return focused;
  return rows().find((row) => row.dataset.taskRow === selectedId) ?? null;
}

/** Moves the selection one row down (`step` 1) or up (-1); with none yet, selects the first row. False without rows. */
export function moveSelection(step: 1 | -1): boolean {
  const all = rows();
  const current = selectedRow();
  const index = current ? all.indexOf(current) : -1;
  const next = all[index === -1 ? 0 : Math.min(all.length - 1, Math.max(0, index + step))];
  if (!next) return false;
  for (const row of all) row.toggleAttribute("data-selected", row === next);
  selectedId = next.dataset.taskRow ?? null;
  (next.querySelector<HTMLElement>("[data-task-open]") ?? next.querySelector<HTMLElement>("[data-task-toggle]"))?.focus();
  return true;
}

/** Clicks a part of the selected row; false when no row is selected (or it has no such part). */
function clickSelected(part: "[data-task-toggle]" | "[data-task-open]"): boolean {
  const element = selectedRow()?.querySelector<HTMLElement>(part);
  element?.click();
  return element != null;
}

/** Completes or reopens the selected task, as a click on its checkbox would. */
export function toggleSelected(): boolean {
  return clickSelected("[data-task-toggle]");
}

/** Opens the selected task's page. */
export function openSelected(): boolean {
  return clickSelected("[data-task-open]");
}
