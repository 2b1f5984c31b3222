import type { Metadata } from "next";
import { notFound, redirect } from "next/navigation";
import { NextIntlClientProvider } from "next-intl";
import { getMessages, getTranslations, setRequestLocale } from "next-intl/server";
import { signInPath } from "@/components/auth/next-path";
import { pageActor } from "@/components/auth/page-session";
import { boardSearch, requestedFilter, usableFilter } from "@/components/board/board-filter";
import { BoardFilters } from "@/components/board/board-filters";
import type { ColumnsScope } from "@/components/board/edit-columns";
import { KanbanBoard } from "@/components/board/kanban-board";
import { BOARD_FIRST_PAGE } from "@/components/board/board-state";
import { listGroups } from "@/lib/groups/service";
import { nowDate } from "@/lib/clock";
import { localeOfTag, tagOfSegment } from "@/lib/i18n/locales";
import { isModuleEnabled } from "@/lib/modules/registry";
import { listProjects } from "@/lib/projects/service";
import { listUserGroups } from "@/lib/teams/service";
import { getBoard } from "@/lib/tasks/answers";
import "@/components/board/board.css";

/**
 * /{locale}/board: the kanban board, one column per status (or a project's or team's own columns), cards in board
 * order, optionally for one group,
 * one project and one team (`?groupId=…&projectId=…&userGroupId=…`: the project and team pages link here). The
 * first paint shows each column's first cards (BOARD_FIRST_PAGE; the rest load as the column is scrolled to its
 * end) and their assignees' names; it comes from the server (the tasks service, called directly); the board then
 * takes over in the browser. Signed-in only: anyone else goes to the sign-in page,
 * which brings them back here with the same filter.
 */
type Props = {
  params: Promise<{ locale: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

export async function generateMetadata({ params }: Pick<Props, "params">): Promise<Metadata> {
  const tag = tagOfSegment((await params).locale);
  if (!tag) return {};
  const t = await getTranslations({ locale: tag, namespace: "Board" });
  return { title: t("metaTitle"), robots: { index: false, follow: false } };
}

export default async function BoardPage({ params, searchParams }: Props) {
  const { locale } = await params;
  const tag = tagOfSegment(locale);
  if (!tag) notFound();
  setRequestLocale(tag);
  const requested = requestedFilter(await searchParams);
  const actor = await pageActor();
  if (!actor) redirect(signInPath(locale, `/${locale}/board${boardSearch(requested)}`));

  const groups = await listGroups(actor, { lang: localeOfTag(tag) ?? undefined });
  // While the projects module is off there is no project filter (and a `projectId` in the address is ignored).
  const projects = isModuleEnabled("projects") ? await listProjects(actor, false) : { items: [] };
  const teams = await listUserGroups(actor);
  const filter = usableFilter(
    requested,
    groups.items.map((group) => group.id),
    projects.items.map((project) => project.id),
    teams.items.map((team) => team.id),
  );
  const board = await getBoard(actor, { ...filter, limit: BOARD_FIRST_PAGE });
  // A project's board shows its own columns, else a team's (lib/board-columns): their owners and admins edit them.
  const manages = (role: string) => role === "owner" || role === "admin";
  const editColumns: ColumnsScope | undefined = filter.projectId
    ? projects.items.some((project) => project.id === filter.projectId && manages(project.role))
      ? { kind: "project", id: filter.projectId }
      : undefined
    : filter.userGroupId && teams.items.some((team) => team.id === filter.userGroupId && manages(team.role))
      ? { kind: "team", id: filter.userGroupId }
      : undefined;
  const t = await getTranslations({ locale: tag, namespace: "Board" });
  const messages = await getMessages({ locale: tag });

  return (
    <NextIntlClientProvider
      locale={tag}
      messages={{ Board: messages.Board, TaskFields: messages.TaskFields }}
      timeZone={actor.timeZone}
    >
      <div className="board-page">
        <header className="board-header">
          <div>
            <h1>{t("title")}</h1>
            <p className="board-lead">{t("lead")}</p>
          </div>
          <BoardFilters
            filter={filter}
            groups={groups.items.map(({ id, name }) => ({ id, name }))}
            projects={projects.items.map(({ id, name }) => ({ id, name }))}
            teams={teams.items.map(({ id, name }) => ({ id, name }))}
          />
        </header>
        <KanbanBoard
          key={boardSearch(filter)}
          initial={board.columns}
          initialPeople={board.people}
          filter={filter}
          editColumns={editColumns}
          clock={{ now: nowDate().toISOString(), timeZone: actor.timeZone }}
        />
      </div>
    </NextIntlClientProvider>
  );
}
