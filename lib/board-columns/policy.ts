/*
 * Who may do what with a project's or team's board columns: every member sees them (they are the board's columns);
 * those who manage the project or team (owners and admins, docs/permissions.md) add, change and delete them.
 */

export function maySeeColumns(role: string | null): boolean {
  return role !== null;
}

export function mayManageColumns(role: string | null): boolean {
  return role === "owner" || role === "admin";
}
