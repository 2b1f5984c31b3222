"use client";

import { useTranslations } from "next-intl";

/** Avatars shown on a card; more assignees than this show as "+n". */
const SHOWN = 3;

/** A person's initials: the first letters of their first and last names ("Eva Nováková" → "EN"). */
export function initials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const first = (word: string | undefined) => (word ? (Array.from(word)[0] ?? "") : "");
  const letters = words.length > 1 ? first(words[0]) + first(words.at(-1)) : first(words[0]);
  return letters.toLocaleUpperCase() || "?";
}

/**
 * A card's assignees as initials in circles, in the order they were assigned: at most three, then "+n". Each
 * circle is an image named by the person's name (screen readers hear the name, not the letters).
 */
export function AssigneeAvatars({ ids, people }: { ids: string[]; people: ReadonlyMap<string, string> }) {
  const t = useTranslations("Board");
  if (ids.length === 0) return null;
  const rest = ids.length - SHOWN;
  return (
    <ul className="board-avatars" aria-label={t("assignees")}>
      {ids.slice(0, SHOWN).map((id) => {
        const name = people.get(id) ?? t("unknownAssignee");
        return (
          <li key={id}>
            <span className="board-avatar" role="img" aria-label={name} title={name}>
              {initials(name)}
            </span>
          </li>
        );
      })}
      {rest > 0 && (
        <li>
          <span className="board-avatar board-avatar-more" role="img" aria-label={t("moreAssignees", { count: rest })}>
            +{rest}
          </span>
        </li>
      )}
    </ul>
  );
}
