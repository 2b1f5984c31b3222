import type { Metadata } from "next";
import { notFound, redirect } from "next/navigation";
import { NextIntlClientProvider } from "next-intl";
import { getMessages, getTranslations, setRequestLocale } from "next-intl/server";
import { signInPath } from "@/components/auth/next-path";
import { pageActor } from "@/components/auth/page-session";
import { filtersToSearch, parseFilters, type SearchParams } from "@/components/tasks/list/filters";
import { countMatching, hasCompletedSection, loadFirstPage, taskListQueryString } from "@/components/tasks/list/first-page";
import { GroupManager } from "@/components/tasks/groups/group-manager";
import { GroupSidebar } from "@/components/tasks/list/group-sidebar";
import { SavedFilters } from "@/components/tasks/list/saved-filters";
import { SidebarCountsProvider } from "@/components/tasks/list/sidebar-counts";
import { TaskListView } from "@/components/tasks/list/task-list-view";
import { nowDate } from "@/lib/clock";
import { listGroups } from "@/lib/groups/service";
import { isLocale, tagOfSegment } from "@/lib/i18n/locales";
import { isModuleEnabled } from "@/lib/modules/registry";
import { listProjects } from "@/lib/projects/service";
import { quickAddLists } from "@/lib/quick-add/service";
import { countTaskViews } from "@/lib/tasks/service";
import { SAVED_FILTERS_MAX } from "@/lib/saved-filters/schema";
import { listSavedFilters } from "@/lib/saved-filters/service";
import "@/components/tasks/list/task-list.css";
import "@/components/tasks/groups/group-manager.css";

/**
 * /{locale}/tasks: the signed-in user's tasks, filtered by the URL's search parameters (components/tasks/list/
 * filters.ts), or its Today or Upcoming view (`?view=today`), with done tasks in a "Completed" section of their own
 * (loaded when opened), and the user's saved filters in the sidebar. The first page is rendered here from the tasks service, so the first paint holds the tasks; the
 * browser then adds, completes, loads more and follows live changes through the API and /ws.
 * Signed-in only: anyone else goes to the sign-in page, which brings them back to the same list.
 */
type Props = { params: Promise<{ locale: string }>; searchParams: Promise<SearchParams> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const tag = tagOfSegment((await params).locale);
  if (!tag) return {};
  const t = await getTranslations({ locale: tag, namespace: "TaskList" });
  return { title: t("metaTitle"), robots: { index: false, follow: false } };
}

export default async function TasksPage({ params, searchParams }: Props) {
  const [{ locale }, search] = await Promise.all([params, searchParams]);
  const tag = tagOfSegment(locale);
  if (!tag || !isLocale(locale)) notFound();
  setRequestLocale(tag);
  const actor = await pageActor();
  if (!actor) {
    const query = new URLSearchParams();
    for (const [key, value] of Object.entries(search)) for (const item of [value ?? []].flat()) query.append(key, item);
    redirect(signInPath(locale, `/${locale}/tasks${query.size ? `?${query}` : ""}`));
  }

  // Archived ones too, for the groups manager; the links, filters and quick add use the active ones.
  const { items: allGroups } = await listGroups(actor, { lang: locale, includeArchived: true, counts: true });
  const groups = allGroups.filter((group) => !group.archived);
  const filters = parseFilters(
    search,
    groups.map((group) => group.id),
  );
  const now = nowDate();
  const queryString = taskListQueryString(filters, actor, now);
  const completedQuery = hasCompletedSection(filters) ? taskListQueryString(filters, actor, now, true) : undefined;
  const [initial, messages, lists, projects, completedCount, viewCounts, saved] = await Promise.all([
    loadFirstPage(actor, queryString),
    getMessages({ locale: tag }),
    quickAddLists(actor),
    isModuleEnabled("projects") ? listProjects(actor, false) : { items: [] },
    completedQuery ? countMatching(actor, completedQuery) : 0,
    countTaskViews(actor, now),
    listSavedFilters(actor),
  ]);
  const groupLinks = groups.map((group) => ({ id: group.id, name: group.name }));
  const listNames = Object.fromEntries([...groupLinks, ...projects.items].map((item) => [item.id, item.name]));
  const managed = allGroups.map(({ id, name, names, own, archived, openTasks }) => ({
    id,
    name,
    names,
    own,
    archived,
    openTasks: openTasks ?? 0,
  }));
  // Quick add without a group filter: the API puts the task in the first active group of the user's own.
  const defaultGroupId = groups.find((group) => group.own)?.id ?? "";

  return (
    <div className="tasks-page">
      <NextIntlClientProvider
        locale={tag}
        messages={{ TaskList: messages.TaskList, TaskFields: messages.TaskFields, TaskGroups: messages.TaskGroups }}
        timeZone={actor.timeZone}
      >
        <SidebarCountsProvider
          initial={{
            views: { today: viewCounts.today, upcoming: viewCounts.upcoming },
            groups: Object.fromEntries(groups.map((group) => [group.id, group.openTasks ?? 0])),
          }}
          renderedAt={now.toISOString()}
        >
          <div className="tasks-aside">
            <GroupSidebar
              locale={locale}
              groups={groups.map((group) => ({ id: group.id, name: group.name, openTasks: group.openTasks ?? 0 }))}
              filters={filters}
              viewCounts={{ today: viewCounts.today, upcoming: viewCounts.upcoming }}
            />
          </div>
          <TaskListView
            locale={locale}
            userId={actor.userId}
            timeZone={actor.timeZone}
            now={now.toISOString()}
            filters={filters}
            groups={groupLinks}
            defaultGroupId={defaultGroupId}
            lists={lists}
            listNames={listNames}
            queryString={queryString}
            initial={initial}
            completed={completedQuery ? { queryString: completedQuery, count: completedCount } : undefined}
          />
        </SidebarCountsProvider>
        {/* Below the sidebar's links on wide screens; after the list on a phone, where the list comes first. */}
        <div className="tasks-aside-more">
          <SavedFilters
            locale={locale}
            items={saved.items}
            currentQuery={filtersToSearch(filters).toString()}
            max={SAVED_FILTERS_MAX}
          />
          <GroupManager locale={locale} groups={managed} />
        </div>
      </NextIntlClientProvider>
    </div>
  );
}
