"use client";

import { useFormatter, useTranslations } from "next-intl";
import { useState } from "react";
import { fieldErrors } from "@/components/auth/call-api";
import { api } from "@/lib/api-client/client";
import { useFormSave } from "@/components/auth/use-form-save";
import { Field, FormMessage } from "@/components/goals/goal-fields";
import type { CardOutput } from "@/lib/reviews/schema";
import { CARD_BACK_MAX, CARD_DECK_MAX, CARD_FRONT_MAX } from "@/lib/reviews/vocabulary";

/*
 * The user's cards: a form to add one (front, back, deck, a goal to link), and the list, each card editable in place
 * (the same form) and deletable.
 */

export interface GoalChoice {
  id: string;
  title: string;
}

type FieldName = "front" | "back" | "deck" | "goalId";

function CardForm(props: {
  card?: CardOutput;
  goals: readonly GoalChoice[];
  onSaved: (card: CardOutput) => void;
  onCancel?: () => void;
}) {
  const t = useTranslations("Reviews");
  const { busy, errors, setErrors, submitWith } = useFormSave<FieldName>(t("errorGeneric"));
  const [status, setStatus] = useState<string>();
  const messages: Record<FieldName, string> = {
    front: t("errorFront", { max: CARD_FRONT_MAX }),
    back: t("errorBack", { max: CARD_BACK_MAX }),
    deck: t("errorDeck", { max: CARD_DECK_MAX }),
    goalId: t("errorGoal"),
  };
  const card = props.card;
  const prefix = card ? `card-${card.id}` : "new-card";

  const save = submitWith(async (data, form) => {
    setStatus(undefined);
    const front = String(data.get("front") ?? "").trim();
    const back = String(data.get("back") ?? "").trim();
    const missing: Partial<Record<FieldName, string>> = {
      ...(!front && { front: messages.front }),
      ...(!back && { back: messages.back }),
    };
    if (Object.keys(missing).length) {
      setErrors({ form: t("errorSummary"), fields: missing });
      return;
    }
    const deck = String(data.get("deck") ?? "").trim();
    const goalId = String(data.get("goalId") ?? "");
    const body = { front, back, deck: deck || null, goalId: goalId || null };
    const answer = card
      ? await api.PATCH("/api/v1/review-cards/{id}", { params: { path: { id: card.id } }, body })
      : await api.POST("/api/v1/review-cards", { body });
    if (answer.ok) {
      if (!card) form.reset();
      setStatus(card ? t("cardSaved") : t("cardAdded"));
      props.onSaved(answer.body);
      return;
    }
    if (answer.status === 400) {
      const fields = fieldErrors(answer.body, messages);
      setErrors({ form: Object.keys(fields).length ? t("errorSummary") : t("errorGeneric"), fields });
    } else if (answer.status === 404 && !card) {
      setErrors({ form: t("errorGoal"), fields: { goalId: messages.goalId } });
    } else {
      setErrors({
        form: answer.status === 409 ? t("errorLimit") : answer.status === 404 ? t("errorGone") : t("errorGeneric"),
        fields: {},
      });
    }
  });

  return (
    <form className="goal-form" noValidate onSubmit={save} aria-describedby={errors.form ? `${prefix}-error` : undefined}>
      <FormMessage id={`${prefix}-error`} kind="error" message={errors.form} />
      <FormMessage kind="status" message={status} />
      <Field label={t("frontLabel")} error={errors.fields.front}>
        {(control) => (
          <textarea
            {...control}
            name="front"
            rows={2}
            required
            maxLength={CARD_FRONT_MAX}
            dir="auto"
            defaultValue={card?.front}
          />
        )}
      </Field>
      <Field label={t("backLabel")} error={errors.fields.back}>
        {(control) => (
          <textarea {...control} name="back" rows={3} required maxLength={CARD_BACK_MAX} dir="auto" defaultValue={card?.back} />
        )}
      </Field>
      <div className="goal-form-row">
        <Field label={t("deckLabel")} hint={t("deckHint")} error={errors.fields.deck}>
          {(control) => (
            <input
              {...control}
              name="deck"
              type="text"
              maxLength={CARD_DECK_MAX}
              dir="auto"
              autoComplete="off"
              defaultValue={card?.deck ?? ""}
            />
          )}
        </Field>
        <Field label={t("goalLabel")} error={errors.fields.goalId}>
          {(control) => (
            <select {...control} name="goalId" defaultValue={card?.goal?.id ?? ""}>
              <option value="">{t("noGoal")}</option>
              {props.goals.map((goal) => (
                <option key={goal.id} value={goal.id}>
                  {goal.title}
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
      <div className="goal-actions">
        <button className="button primary" type="submit" disabled={busy} aria-busy={busy}>
          {busy ? t("working") : card ? t("save") : t("add")}
        </button>
        {props.onCancel && (
          <button className="button" type="button" onClick={props.onCancel}>
            {t("cancel")}
          </button>
        )}
      </div>
    </form>
  );
}

export function NewCardForm(props: { goals: readonly GoalChoice[]; onSaved: (card: CardOutput) => void }) {
  return <CardForm goals={props.goals} onSaved={props.onSaved} />;
}

export function CardList(props: {
  cards: readonly CardOutput[];
  goals: readonly GoalChoice[];
  locale: string;
  onSaved: (card: CardOutput) => void;
  onDeleted: (id: string) => void;
}) {
  const t = useTranslations("Reviews");
  const format = useFormatter();
  const [editing, setEditing] = useState<string | null>(null);
  const [message, setMessage] = useState<{ kind: "status" | "error"; text: string }>();

  async function remove(card: CardOutput) {
    setMessage(undefined);
    try {
      const answer = await api.DELETE("/api/v1/review-cards/{id}", { params: { path: { id: card.id } } });
      if (answer.ok || answer.status === 404) {
        props.onDeleted(card.id);
        setMessage({ kind: "status", text: t("cardDeleted") });
      } else setMessage({ kind: "error", text: t("errorGeneric") });
    } catch {
      setMessage({ kind: "error", text: t("errorGeneric") });
    }
  }

  return (
    <>
      <FormMessage kind="error" message={message?.kind === "error" ? message.text : undefined} />
      <FormMessage kind="status" message={message?.kind === "status" ? message.text : undefined} />
      {props.cards.length === 0 ? (
        <p className="goals-empty">{t("empty")}</p>
      ) : (
        <ul className="review-card-list">
          {props.cards.map((card) => (
            <li key={card.id} className="review-card-item">
              {editing === card.id ? (
                <CardForm
                  card={card}
                  goals={props.goals}
                  onSaved={(saved) => {
                    props.onSaved(saved);
                    setEditing(null);
                  }}
                  onCancel={() => setEditing(null)}
                />
              ) : (
                <>
                  <h3 dir="auto">{card.front}</h3>
                  <p className="review-card-back" dir="auto">
                    {card.back}
                  </p>
                  <p className="review-meta">
                    <span>
                      {t("dueOn", { date: format.dateTime(new Date(card.due), { dateStyle: "medium", timeStyle: "short" }) })}
                    </span>
                    {card.deck && <span>{t("deckTag", { deck: card.deck })}</span>}
                    {card.goal && (
                      <span>
                        {t("goalTag")} <a href={`/${props.locale}/goals/${card.goal.id}`}>{card.goal.title}</a>
                      </span>
                    )}
                    {card.task && (
                      <span>
                        {t("taskTag")} <a href={`/${props.locale}/tasks/${card.task.id}`}>{card.task.title}</a>
                      </span>
                    )}
                    <span>{t("reps", { count: card.reps })}</span>
                  </p>
                  <div className="goal-actions">
                    <button
                      className="button"
                      type="button"
                      onClick={() => setEditing(card.id)}
                      aria-label={t("editLabel", { front: card.front })}
                    >
                      {t("edit")}
                    </button>
                    <button
                      className="button"
                      type="button"
                      onClick={() => void remove(card)}
                      aria-label={t("deleteLabel", { front: card.front })}
                    >
                      {t("delete")}
                    </button>
                  </div>
                </>
              )}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
