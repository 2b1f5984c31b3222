import type { TaskStatus } from "@/lib/tasks/vocabulary";

/** What a column is called on screen: its name, or its status in the reader's language (`TaskFields` messages). */
export function columnLabel(
  column: { name: string | null; status: TaskStatus },
  fields: (key: `status.${TaskStatus}`) => string,
) {
  return column.name ?? fields(`status.${column.status}`);
}
