"use client";

import { useFormatter, useTranslations } from "next-intl";
import { useId, useRef, useState } from "react";
import { api } from "@/lib/api-client/client";
import type { LeaderboardOutput } from "@/lib/gamification/schema";

type Period = LeaderboardOutput["period"];

export interface BoardChoices {
  teams: { id: string; name: string }[];
  family: boolean;
}

/** `global`, `family` or `team:<id>`: one select for the scope and the team. */
function queryOf(board: string, period: Period): string {
  const params = new URLSearchParams({ period });
  if (board.startsWith("team:")) {
    params.set("scope", "team");
    params.set("teamId", board.slice(5));
  } else params.set("scope", board);
  return params.toString();
}

/**
 * The leaderboard: the opt-in switch (saved at once), the board (everyone, the family, each team) and the period,
 * the table of those who chose to appear, and the caller's own standing, which only they see.
 */
export function Leaderboard({
  initial,
  choices,
  optedIn: initialOptIn,
}: {
  initial: LeaderboardOutput;
  choices: BoardChoices;
  optedIn: boolean;
}) {
  const t = useTranslations("Achievements");
  const format = useFormatter();
  const id = useId();
  const [optedIn, setOptedIn] = useState(initialOptIn);
  const [board, setBoard] = useState("global");
  const [period, setPeriod] = useState<Period>(initial.period);
  const [data, setData] = useState<LeaderboardOutput | null>(initial);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const latest = useRef(0);

  async function load(nextBoard: string, nextPeriod: Period) {
    const request = ++latest.current;
    setError(null);
    const answer = await api
      .GET("/api/v1/gamification/leaderboard", { querySerializer: () => queryOf(nextBoard, nextPeriod) })
      .catch(() => null);
    if (request !== latest.current) return;
    if (answer?.ok) setData(answer.body);
    else {
      setData(null);
      setError(answer?.status === 404 && nextBoard === "family" ? t("noFamily") : t("boardError"));
    }
  }

  /** Shows the choice at once and saves it; a failed save puts the box back and says so. */
  async function toggle(checked: boolean) {
    setOptedIn(checked);
    setBusy(true);
    setStatus(null);
    const answer = await api.PATCH("/api/v1/gamification/me", { body: { leaderboardOptIn: checked } }).catch(() => null);
    setBusy(false);
    if (!answer?.ok) {
      setOptedIn(!checked);
      setStatus(t("saveError"));
      return;
    }
    setStatus(t("optInSaved"));
    await load(board, period);
  }

  return (
    <div className="achievements-board">
      <div className="achievements-optin">
        <label>
          <input
            type="checkbox"
            checked={optedIn}
            disabled={busy}
            onChange={(event) => void toggle(event.currentTarget.checked)}
          />{" "}
          {t("optIn")}
        </label>
        <p className="achievements-muted">{t("optInHelp")}</p>
        <p role="status" className="achievements-muted">
          {status}
        </p>
      </div>
      <div className="achievements-filters">
        <div className="field">
          <label htmlFor={`${id}-board`}>{t("scopeLabel")}</label>
          <select
            id={`${id}-board`}
            value={board}
            onChange={(event) => {
              setBoard(event.currentTarget.value);
              void load(event.currentTarget.value, period);
            }}
          >
            <option value="global">{t("scopeGlobal")}</option>
            {choices.family && <option value="family">{t("scopeFamily")}</option>}
            {choices.teams.map((team) => (
              <option key={team.id} value={`team:${team.id}`}>
                {t("scopeTeam", { name: team.name })}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-period`}>{t("periodLabel")}</label>
          <select
            id={`${id}-period`}
            value={period}
            onChange={(event) => {
              const next = event.currentTarget.value as Period;
              setPeriod(next);
              void load(board, next);
            }}
          >
            <option value="week">{t("periodWeek")}</option>
            <option value="month">{t("periodMonth")}</option>
            <option value="all">{t("periodAll")}</option>
          </select>
        </div>
      </div>
      {error && (
        <p role="alert" className="achievements-error">
          {error}
        </p>
      )}
      {data && (
        <>
          <p className="achievements-you" data-testid="your-rank">
            {t(data.you.optedIn ? "yourRank" : "yourRankHidden", { rank: data.you.rank, points: data.you.points })}
          </p>
          {data.entries.length === 0 ? (
            <p className="achievements-muted">{t("boardEmpty")}</p>
          ) : (
            <div className="achievements-table-wrap">
              <table className="achievements-table">
                <caption>{t("boardCaption", { count: data.listed })}</caption>
                <thead>
                  <tr>
                    <th scope="col">{t("rankColumn")}</th>
                    <th scope="col">{t("nameColumn")}</th>
                    <th scope="col">{t("levelColumn")}</th>
                    <th scope="col">{t("pointsColumn")}</th>
                  </tr>
                </thead>
                <tbody>
                  {data.entries.map((entry) => (
                    <tr key={entry.userId} className={entry.isYou ? "you" : undefined}>
                      <td>{format.number(entry.rank)}</td>
                      <th scope="row">
                        {entry.name} {entry.isYou && <span className="achievements-muted">{t("youMarker")}</span>}
                      </th>
                      <td>{format.number(entry.level)}</td>
                      <td>{format.number(entry.points)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </>
      )}
    </div>
  );
}
