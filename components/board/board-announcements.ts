"use client";

import type { Announcements, ScreenReaderInstructions } from "@dnd-kit/core";
import { useTranslations } from "next-intl";
import { useMemo, type RefObject } from "react";
import { columnLabel } from "./column-label";
import { dropSpot, findTask, locate, type Board, type Spot } from "./board-state";

/**
 * What screen readers hear while a card is dragged, in the page's language: the card's title, its column and
 * its place there ("position 2 of 5"), instead of dnd-kit's English defaults that name items by their ids.
 * `board` is read when each announcement is made: the drag handlers have moved the card by then.
 */
export function useBoardAccessibility(board: RefObject<Board>): {
  announcements: Announcements;
  screenReaderInstructions: ScreenReaderInstructions;
} {
  const t = useTranslations("Board");
  const fields = useTranslations("TaskFields");

  return useMemo(() => {
    const title = (id: unknown) => findTask(board.current, id)?.title ?? "";
    const place = (spot: Spot) => ({ column: columnLabel(spot, fields), position: spot.index + 1, count: spot.count });
    const where = (id: unknown, message: "pickedUp" | "dropped" | "cancelled") => {
      const spot = locate(board.current, id);
      return spot ? t(message, { title: title(id), ...place(spot) }) : undefined;
    };
    // The place last announced: dnd-kit reports the card over itself right after it is picked up, and that
    // must not replace "Picked up…" with the same place in other words.
    let announced: Spot | null = null;
    const same = (a: Spot | null, b: Spot | null) => a?.column === b?.column && a?.index === b?.index && a?.count === b?.count;
    return {
      announcements: {
        onDragStart: ({ active }) => {
          announced = locate(board.current, active.id);
          return where(active.id, "pickedUp");
        },
        onDragOver: ({ active, over }) => {
          const spot = over ? dropSpot(board.current, active.id, over.id) : null;
          if (same(spot, announced)) return undefined;
          announced = spot;
          return spot
            ? t("movedOver", { title: title(active.id), ...place(spot) })
            : t("notOverColumn", { title: title(active.id) });
        },
        onDragEnd: ({ active }) => where(active.id, "dropped"),
        onDragCancel: ({ active }) => where(active.id, "cancelled"),
      },
      screenReaderInstructions: { draggable: t("dragInstructions") },
    };
  }, [board, t, fields]);
}
