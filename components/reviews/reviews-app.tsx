"use client";

import { useTranslations } from "next-intl";
import { useCallback, useState } from "react";
import type { CardOutput, ReviewOutput } from "@/lib/reviews/schema";
import { CardList, NewCardForm, type GoalChoice } from "./card-manager";
import { ReviewSession } from "./review-session";

/** /{locale}/reviews in the browser: the due queue and the cards, kept in step (a new card is due at once). */
export function ReviewsApp(props: {
  due: CardOutput[];
  dueTotal: number;
  cards: CardOutput[];
  goals: GoalChoice[];
  locale: string;
}) {
  const t = useTranslations("Reviews");
  const [queue, setQueue] = useState(props.due);
  const [total, setTotal] = useState(props.dueTotal);
  const [cards, setCards] = useState(props.cards);

  const replace = useCallback(
    (card: CardOutput) => setCards((list) => list.map((item) => (item.id === card.id ? card : item))),
    [],
  );
  const reviewed = useCallback(
    (result: ReviewOutput) => {
      setQueue((list) => list.filter((card) => card.id !== result.card.id));
      setTotal((count) => Math.max(0, count - 1));
      replace(result.card);
    },
    [replace],
  );

  return (
    <>
      <section className="goal-section" aria-labelledby="review-queue-title">
        <h2 id="review-queue-title">{t("queueTitle")}</h2>
        <ReviewSession queue={queue} total={total} onReviewed={reviewed} />
      </section>
      <section className="goal-section" aria-labelledby="new-card-title">
        <h2 id="new-card-title">{t("newTitle")}</h2>
        <NewCardForm
          goals={props.goals}
          onSaved={(card) => {
            setCards((list) => [card, ...list]);
            setQueue((list) => [...list, card]);
            setTotal((count) => count + 1);
          }}
        />
      </section>
      <section className="goal-section plain" aria-labelledby="card-list-title">
        <h2 id="card-list-title">{t("cardsTitle")}</h2>
        <CardList
          cards={cards}
          goals={props.goals}
          locale={props.locale}
          onSaved={(card) => {
            replace(card);
            setQueue((list) => list.map((item) => (item.id === card.id ? card : item)));
          }}
          onDeleted={(id) => {
            setCards((list) => list.filter((card) => card.id !== id));
            if (queue.some((card) => card.id === id)) setTotal((count) => Math.max(0, count - 1));
            setQueue((list) => list.filter((card) => card.id !== id));
          }}
        />
      </section>
    </>
  );
}
