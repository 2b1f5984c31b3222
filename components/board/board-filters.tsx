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
      <FilterSelect
        id={`${id}-group`}
        name="groupId"
        label={t("groupLabel")}
        all={t("allGroups")}
        value={filter.groupId}
        choices={groups}
        onChoose={(groupId) => choose({ groupId })}
      />
      {projects.length > 0 && (
        <FilterSelect
          id={`${id}-project`}
          name="projectId"
          label={t("projectLabel")}
          all={t("allProjects")}
          value={filter.projectId}
          choices={projects}
          onChoose={(projectId) => choose({ projectId })}
        />
      )}
      {teams.length > 0 && (
        <FilterSelect
          id={`${id}-team`}
          name="userGroupId"
          label={t("teamLabel")}
          all={t("allTeams")}
          value={filter.userGroupId}
          choices={teams}
          onChoose={(userGroupId) => choose({ userGroupId })}
        />
      )}
      <noscript>
        <button type="submit" className="button">
          {t("applyFilters")}
        </button>
      </noscript>
    </form>
  );
}

/** One filter: "all" first, then the choices; a choice goes to the URL at once. */
function FilterSelect({
  id,
  name,
  label,
  all,
  value,
  choices,
  onChoose,
}: {
  id: string;
  name: keyof BoardFilter;
  label: string;
  all: string;
  value: string | undefined;
  choices: FilterChoice[];
  onChoose(id: string | undefined): void;
}) {
  return (
    <div className="board-filter">
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        name={name}
        defaultValue={value ?? ""}
        onChange={(event) => onChoose(event.currentTarget.value || undefined)}
      >
        <option value="">{all}</option>
        {choices.map((choice) => (
          <option key={choice.id} value={choice.id}>
            {choice.name}
          </option>
        ))}
      </select>
    </div>
  );
}
