"use client";

import { useTranslations } from "next-intl";
import { useId, useTransition } from "react";
import { useRouter } from "@/i18n/navigation";
import { boardSearch, type BoardFilter } from "./board-filter";

export interface FilterChoice {
  id: string;
  name: string;
}

/**
 * The group, project and team filters. A choice goes into the URL (`?groupId=…`), so that a filtered board can be
 * reloaded, bookmarked and shared; the server renders the board for it. Without JavaScript the form is
 * submitted with its button instead.
 */
export function BoardFilters({
  filter,
  groups,
  projects,
  teams,
}: {
  filter: BoardFilter;
  groups: FilterChoice[];
  projects: FilterChoice[];
  teams: FilterChoice[];
}) {
  const t = useTranslations("Board");
  const id = useId();
  const router = useRouter();
  const [pending, startTransition] = useTransition();

  const choose = (change: BoardFilter) =>
    startTransition(() => router.replace(`/board${boardSearch({ ...filter, ...change })}`, { scroll: false }));

  return (
    <form className="board-filters" method="get" aria-label={t("filtersLabel")} aria-busy={pending || undefined}>
      <div className="board-filter">
        <label htmlFor={`${id}-group`}>{t("groupLabel")}</label>
        <select
          id={`${id}-group`}
          name="groupId"
          defaultValue={filter.groupId ?? ""}
          onChange={(event) => choose({ groupId: event.currentTarget.value || undefined })}
        >
          <option value="">{t("allGroups")}</option>
          {groups.map((group) => (
            <option key={group.id} value={group.id}>
              {group.name}
            </option>
          ))}
        </select>
      </div>
      {projects.length > 0 && (
        <div className="board-filter">
          <label htmlFor={`${id}-project`}>{t("projectLabel")}</label>
          <select
            id={`${id}-project`}
            name="projectId"
            defaultValue={filter.projectId ?? ""}
            onChange={(event) => choose({ projectId: event.currentTarget.value || undefined })}
          >
            <option value="">{t("allProjects")}</option>
            {projects.map((project) => (
              <option key={project.id} value={project.id}>
                {project.name}
              </option>
            ))}
          </select>
        </div>
      )}
      {teams.length > 0 && (
        <div className="board-filter">
          <label htmlFor={`${id}-team`}>{t("teamLabel")}</label>
          <select
            id={`${id}-team`}
            name="userGroupId"
            defaultValue={filter.userGroupId ?? ""}
            onChange={(event) => choose({ userGroupId: event.currentTarget.value || undefined })}
          >
            <option value="">{t("allTeams")}</option>
            {teams.map((team) => (
              <option key={team.id} value={team.id}>
                {team.name}
              </option>
            ))}
          </select>
        </div>
      )}
      <noscript>
        <button type="submit" className="button">
          {t("applyFilters")}
        </button>
      </noscript>
    </form>
  );
}
