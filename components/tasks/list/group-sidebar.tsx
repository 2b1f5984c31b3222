import Link from "next/link";
import { useTranslations } from "next-intl";
import { listHref, type TaskFilters } from "./filters";

/**
 * The user's task groups, named in the page's language: each link shows the list of one group with the other
 * filters kept, and how many open tasks the group holds (none shown for an empty one; screen readers hear it as
 * the link's description). On phones it gives way to the group field of the filter form (task-list.css). Links to
 * lists are not prefetched: every list is rendered for its request, and a page would otherwise ask for all of them.
 */
export function GroupSidebar({
  locale,
  groups,
  filters,
}: {
  locale: string;
  groups: readonly { id: string; name: string; openTasks: number }[];
  filters: TaskFilters;
}) {
  const t = useTranslations("TaskList");
  const entries = [{ id: undefined, name: t("allTasks"), openTasks: 0 }, ...groups];
  return (
    <nav className="tasks-sidebar" aria-label={t("groupsNav")}>
      <ul>
        {entries.map((group) => (
          <li key={group.id ?? "all"}>
            <Link
              href={listHref(locale, { ...filters, groupId: group.id })}
              prefetch={false}
              aria-current={filters.groupId === group.id ? "page" : undefined}
              aria-describedby={group.openTasks > 0 ? `group-open-${group.id}` : undefined}
            >
              <span dir="auto">{group.name}</span>
              {group.openTasks > 0 && (
                <span className="tasks-sidebar-count" aria-hidden="true">
                  {group.openTasks}
                </span>
              )}
            </Link>
            {group.openTasks > 0 && (
              <span id={`group-open-${group.id}`} className="visually-hidden">
                {t("openTasks", { count: group.openTasks })}
              </span>
            )}
          </li>
        ))}
      </ul>
    </nav>
  );
}
