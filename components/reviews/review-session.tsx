"use client";

import { useFormatter, useTranslations } from "next-intl";
import { useCallback, useEffect, useRef, useState } from "react";
import { api } from "@/lib/api-client/client";
import type { CardOutput, ReviewOutput } from "@/lib/reviews/schema";
import { REVIEW_GRADES, type ReviewGrade } from "@/lib/reviews/vocabulary";

/**
 * The due queue, one card at a time: its front, then (Show answer, or Space) its back and the four grades (buttons,
 * or the keys 1-4). Each grade is posted with a fresh `reviewId`, so a repeated click or a retry counts once; the
 * card then leaves the queue (a card due again within minutes comes back when the page is reloaded).
 */
export function ReviewSession({
  queue,
  total,
  onReviewed,
}: {
  queue: CardOutput[];
  total: number;
  onReviewed: (result: ReviewOutput) => void;
}) {
  const t = useTranslations("Reviews");
  const format = useFormatter();
  const [revealed, setRevealed] = useState(false);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ kind: "status" | "error"; text: string } | null>(null);
  const reviewId = useRef<string | null>(null);
  const card = queue[0];
  const flashcard = useRef<HTMLElement>(null);
  const moved = useRef(false);

  // Showing the answer removes the button that had the focus: it moves to the first grade, and back after grading.
  useEffect(() => {
    if (!moved.current) return;
    flashcard.current?.querySelector<HTMLButtonElement>(revealed ? ".review-grade" : ".review-reveal")?.focus();
  }, [revealed, card?.id]);

  const grade = useCallback(
    async (value: ReviewGrade) => {
      if (!card || busy) return;
      setBusy(true);
      reviewId.current ??= crypto.randomUUID();
      try {
        const answer = await api.POST("/api/v1/review-cards/{id}/reviews", {
          params: { path: { id: card.id } },
          body: { grade: value, reviewId: reviewId.current },
        });
        if (answer.ok) {
          reviewId.current = null;
          setRevealed(false);
          setMessage({
            kind: "status",
            text: t("graded", {
              grade: t(`grade.${value}`),
              due: format.dateTime(new Date(answer.body.card.due), { dateStyle: "medium", timeStyle: "short" }),
            }),
          });
          onReviewed(answer.body);
        } else {
          setMessage({ kind: "error", text: answer.status === 404 ? t("errorGone") : t("errorGeneric") });
          if (answer.status === 404) {
            reviewId.current = null;
            setRevealed(false);
          }
        }
      } catch {
        setMessage({ kind: "error", text: t("errorGeneric") });
      } finally {
        setBusy(false);
      }
    },
    [card, busy, format, onReviewed, t],
  );

  useEffect(() => {
    function onKey(event: KeyboardEvent) {
      const target = event.target as HTMLElement | null;
      if (event.altKey || event.ctrlKey || event.metaKey || target?.closest("input, textarea, select, [contenteditable]")) return;
      if (!revealed && event.key === " " && target?.tagName !== "BUTTON" && target?.tagName !== "A") {
        event.preventDefault();
        moved.current = true;
        setRevealed(true);
        return;
      }
      const index = ["1", "2", "3", "4"].indexOf(event.key);
      if (revealed && index >= 0) {
        event.preventDefault();
        void grade(REVIEW_GRADES[index]!);
      }
    }
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [revealed, grade]);

  return (
    <div className="review-session">
      <p className="review-count" aria-live="polite">
        {t("queueCount", { count: Math.max(total, queue.length) })}
      </p>
      <p
        className={message?.kind === "error" ? "goal-form-error" : "goal-form-status"}
        role={message?.kind === "error" ? "alert" : "status"}
      >
        {message?.text}
      </p>
      {card ? (
        <article ref={flashcard} className="review-flashcard" aria-labelledby="review-front">
          <p className="review-side-label">{t("front")}</p>
          <p id="review-front" className="review-front" dir="auto">
            {card.front}
          </p>
          {card.deck && <p className="review-meta">{t("deckTag", { deck: card.deck })}</p>}
          {revealed ? (
            <>
              <p className="review-side-label">{t("back")}</p>
              <p className="review-back" dir="auto">
                {card.back}
              </p>
              <fieldset className="review-grades" disabled={busy} aria-busy={busy}>
                <legend>{t("gradeLegend")}</legend>
                {REVIEW_GRADES.map((value, index) => (
                  <button
                    key={value}
                    type="button"
                    className={`button review-grade review-grade-${value}`}
                    onClick={() => void grade(value)}
                    aria-keyshortcuts={String(index + 1)}
                  >
                    <kbd aria-hidden="true">{index + 1}</kbd> {t(`grade.${value}`)}
                  </button>
                ))}
              </fieldset>
            </>
          ) : (
            <button
              type="button"
              className="button primary review-reveal"
              onClick={() => {
                moved.current = true;
                setRevealed(true);
              }}
              aria-keyshortcuts="Space"
            >
              {t("showAnswer")}
            </button>
          )}
          <p className="goal-hint">{t("shortcutsHint")}</p>
        </article>
      ) : (
        <div className="review-done">
          <h3>{t("doneTitle")}</h3>
          <p>{t("doneText")}</p>
        </div>
      )}
    </div>
  );
}
