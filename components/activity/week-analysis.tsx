"use client";

import { useTranslations } from "next-intl";
import { useState } from "react";
import { api } from "@/lib/api-client/client";
import { FormError } from "@/components/auth/form-field";
import type { AnalysisOutput } from "@/lib/activity/schema";
import { InsightText } from "./insight-text";

/*
 * "Analyse my week" on /{locale}/activity (`POST /activity/analysis`): the built-in assistant's findings, or the AI
 * endpoint's answer, and which assistant answered. An endpoint that is down (503) or a used-up daily budget (429)
 * is said in the user's language; the result region is live, so that the answer is announced when it arrives.
 */

type State = { kind: "idle" } | { kind: "busy" } | { kind: "done"; result: AnalysisOutput } | { kind: "failed"; message: string };

export function WeekAnalysis({ locale }: { locale: string }) {
  const t = useTranslations("Activity");
  const [state, setState] = useState<State>({ kind: "idle" });
  const busy = state.kind === "busy";

  async function analyse() {
    setState({ kind: "busy" });
    try {
      const answer = await api.POST("/api/v1/activity/analysis", { body: {} });
      if (answer.ok) return setState({ kind: "done", result: answer.body });
      const message =
        answer.status === 503
          ? t("errorUnavailable")
          : answer.status === 429
            ? t("errorBudget")
            : answer.status === 401
              ? t("errorSignedOut")
              : t("errorGeneric");
      setState({ kind: "failed", message });
    } catch {
      setState({ kind: "failed", message: t("errorGeneric") });
    }
  }

  const result = state.kind === "done" ? state.result : null;
  return (
    <section className="activity-card" aria-labelledby="activity-analysis-title">
      <header className="activity-card-intro">
        <h2 id="activity-analysis-title">{t("analysisTitle")}</h2>
        <p className="activity-muted">{t("analysisLead")}</p>
      </header>
      <div>
        <button className="button primary" type="button" onClick={analyse} disabled={busy} aria-busy={busy}>
          {busy ? t("analysing") : t("analyse")}
        </button>
      </div>
      <FormError id="activity-analysis-error" message={state.kind === "failed" ? state.message : undefined} />
      <div className="activity-analysis" aria-live="polite">
        {result && (
          <>
            {result.text !== null ? (
              <p className="activity-answer" dir="auto">
                {result.text}
              </p>
            ) : (
              <ul className="activity-insights">
                {result.insights.map((insight) => (
                  <li key={insight.kind}>
                    <InsightText insight={insight} facts={result.facts} locale={locale} />
                  </li>
                ))}
              </ul>
            )}
            <p className="activity-answered-by">
              {result.answeredBy.provider === "built-in"
                ? t("answeredByBuiltIn")
                : t("answeredByModel", { model: result.answeredBy.model })}
            </p>
            {result.fallbackReason && <p className="activity-muted">{t("fallback")}</p>}
          </>
        )}
      </div>
    </section>
  );
}
