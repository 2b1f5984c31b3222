"use client";

import Link from "next/link";
import { useTranslations } from "next-intl";
import { TASK_VIEWS } from "@/lib/tasks/vocabulary";
import { listHref, viewFilters, type TaskFilters, type TaskView } from "./filters";
import { useSidebarCounts } from "./sidebar-counts";

/*
 * The list's sidebar: the views (All tasks, Today, Upcoming) above the user's task groups, named in the page's
 * language. Each link shows how many open tasks it leads to (none shown for an empty one; screen readers hear it as
 * the link's description). A view link shows that view of all tasks; a group link shows the list of one group with
 * the other filters kept. The counts follow changes live (sidebar-counts.tsx: the props are the server's first
 * numbers, used outside its provider). On phones the views are a row above the list and the groups give way to the group field
 * of the filter form (task-list.css). Links to lists are not prefetched: every list is rendered for its request,
 * and a page would otherwise ask for all of them.
 */

interface Props {
  locale: string;
  groups: readonly { id: string; name: string; openTasks: number }[];
  filters: TaskFilters;
  /** Open tasks in each view, as rendered on the server. */
  viewCounts: Record<TaskView, number>;
}

export function GroupSidebar({ locale, groups, filters, viewCounts }: Props) {
  const t = useTranslations("TaskList");
  const listFilters = filters.view ? { ...filters, ...viewFilters(undefined) } : filters;
  const counts = useSidebarCounts({
    views: viewCounts,
    groups: Object.fromEntries(groups.map((group) => [group.id, group.openTasks])),
  });
  return (
    <>
      <nav className="tasks-views" aria-label={t("viewsNav")}>
        <ul>
          <SidebarLink
            className="tasks-views-all"
            id="view-all"
            href={listHref(locale, viewFilters(undefined))}
            name={t("allTasks")}
            count={0}
            current={!filters.view && !filters.groupId}
          />
          {TASK_VIEWS.map((view) => (
            <SidebarLink
              key={view}
              id={`view-${view}`}
              href={listHref(locale, viewFilters(view))}
              name={t(`views.${view}`)}
              count={counts.views[view]}
              current={filters.view === view}
            />
          ))}
        </ul>
      </nav>
      <nav className="tasks-sidebar" aria-label={t("groupsNav")}>
        <ul>
          {[{ id: undefined, name: t("allTasks") }, ...groups].map((group) => (
            <SidebarLink
              key={group.id ?? "all"}
              id={`group-${group.id ?? "all"}`}
              href={listHref(locale, { ...listFilters, groupId: group.id })}
              name={group.name}
              count={group.id ? (counts.groups[group.id] ?? 0) : 0}
              current={!filters.view && filters.groupId === group.id}
            />
          ))}
        </ul>
      </nav>
    </>
  );
}

interface LinkProps {
  id: string;
  href: string;
  name: string;
  count: number;
  current: boolean;
  className?: string;
}

function SidebarLink({ id, href, name, count, current, className }: LinkProps) {
  const t = useTranslations("TaskList");
  return (
    <li className={className}>
      <Link
        href={href}
        prefetch={false}
        aria-current={current ? "page" : undefined}
        aria-describedby={count > 0 ? `${id}-open` : undefined}
      >
        <span dir="auto">{name}</span>
        {count > 0 && (
          <span className="tasks-sidebar-count" aria-hidden="true">
            {count}
          </span>
        )}
      </Link>
      {count > 0 && (
        <span id={`${id}-open`} className="visually-hidden">
          {t("openTasks", { count })}
        </span>
      )}
    </li>
  );
}
