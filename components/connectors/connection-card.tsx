"use client";

import { useFormatter, useTranslations } from "next-intl";
import { useId, useState } from "react";
import { api } from "@/lib/api-client/client";
import { WebhookSecret } from "@/components/settings/webhook-secret";
import type { ConnectionOutput, RunOutput } from "@/lib/connectors/schema";

/*
 * One connection on /{locale}/settings/connections: its kind, name, team, status, last sync and last error, and
 * what can be done with it: check it (`POST .../check`), import and export now (the finished run is shown with its
 * counts and failed items), its run history (`GET .../runs`, loaded when opened), a new webhook secret (shown once)
 * and deletion (after a confirmation). Only the status check and the history are offered to team members who do
 * not manage the connection.
 */

type Notice = { kind: "status" | "error"; text: string } | null;

function RunSummary({ run }: { run: RunOutput }) {
  const t = useTranslations("ConnectionSettings");
  const format = useFormatter();
  const failed = run.items.filter((item) => item.action === "failed");
  return (
    <div className="connection-run">
      <p>
        <strong>
          {t(`operation_${run.operation}`)}: {t(`run_${run.status}`)}
        </strong>{" "}
        <span className="connection-meta">
          {format.dateTime(new Date(run.startedAt), { dateStyle: "medium", timeStyle: "short" })}
        </span>
      </p>
      <p>{t("counts", run.counts)}</p>
      {run.error && <p className="connection-error">{run.error}</p>}
      {run.nextAttemptAt && (
        <p className="auth-hint">
          {t("retryAt", { date: format.dateTime(new Date(run.nextAttemptAt), { dateStyle: "medium", timeStyle: "short" }) })}
        </p>
      )}
      {failed.length > 0 && (
        <ul className="connection-failures" aria-label={t("failedItems")}>
          {failed.map((item, index) => (
            <li key={`${item.externalId}-${index}`}>
              <span dir="ltr">{item.externalId ?? item.localId ?? "?"}</span>: {item.error}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

export function ConnectionCard({
  connection,
  teamName,
  onChange,
  onDelete,
}: {
  connection: ConnectionOutput;
  /** The team's name for a workspace connection; null: personal. */
  teamName: string | null;
  onChange: (connection: ConnectionOutput) => void;
  onDelete: (id: string) => void;
}) {
  const t = useTranslations("ConnectionSettings");
  const format = useFormatter();
  const id = useId();
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<Notice>(null);
  const [lastRun, setLastRun] = useState<RunOutput | null>(null);
  const [runs, setRuns] = useState<RunOutput[] | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const byId = { params: { path: { id: connection.id } } };

  const failure = (status: number) =>
    status === 409
      ? t("errorRunning")
      : status === 403
        ? t("errorForbidden")
        : status === 404
          ? t("errorGone")
          : t("errorGeneric");

  /** Runs one action at a time and announces its outcome; then the connection is read again (status, last sync). */
  async function act(work: () => Promise<Notice>) {
    if (busy) return;
    setBusy(true);
    setNotice(null);
    try {
      setNotice(await work());
      const fresh = await api.GET("/api/v1/connectors/{id}", byId);
      if (fresh.ok) onChange(fresh.body);
    } catch {
      setNotice({ kind: "error", text: t("errorGeneric") });
    } finally {
      setBusy(false);
    }
  }

  const check = () =>
    act(async () => {
      const answer = await api.POST("/api/v1/connectors/{id}/check", byId);
      if (!answer.ok) return { kind: "error", text: failure(answer.status) };
      const report = answer.body;
      const flavour = typeof report.details.apiFlavour === "string" ? report.details.apiFlavour : null;
      if (report.reachable && report.authenticated) {
        return { kind: "status", text: t("checkOk", { version: report.version ?? "?", flavour: flavour ?? "-" }) };
      }
      return {
        kind: "error",
        text: t(report.reachable ? "checkNotAuthenticated" : "checkUnreachable", { error: report.error ?? "" }),
      };
    });

  const runNow = (operation: "import" | "export") =>
    act(async () => {
      const answer = await api.POST(`/api/v1/connectors/{id}/${operation}` as const, byId);
      if (!answer.ok) return { kind: "error", text: failure(answer.status) };
      const run = answer.body;
      setLastRun(run);
      if (runs) setRuns((list) => [run, ...(list ?? [])]);
      return {
        kind: answer.body.status === "failed" ? "error" : "status",
        text: `${t(`operation_${operation}`)}: ${t(`run_${answer.body.status}`)}`,
      };
    });

  const loadRuns = () =>
    act(async () => {
      const answer = await api.GET("/api/v1/connectors/{id}/runs", byId);
      if (!answer.ok) return { kind: "error", text: failure(answer.status) };
      setRuns(answer.body.items);
      return null;
    });

  const rotate = () =>
    act(async () => {
      const answer = await api.POST("/api/v1/connectors/{id}/webhook-secret", byId);
      if (!answer.ok) return { kind: "error", text: failure(answer.status) };
      setSecret(answer.body.webhookSecret);
      return null;
    });

  const remove = () =>
    act(async () => {
      const answer = await api.DELETE("/api/v1/connectors/{id}", byId);
      if (answer.ok || answer.status === 404) {
        onDelete(connection.id);
        return null;
      }
      return { kind: "error", text: failure(answer.status) };
    });

  return (
    <li className="connection-card" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>
        {connection.name} <span className="connection-kind">{t(`kind_${connection.kind}`)}</span>
      </h3>
      <dl className="connection-facts">
        <dt>{t("statusLabel")}</dt>
        <dd>
          <span className={`connection-badge connection-badge-${connection.status}`}>{t(`status_${connection.status}`)}</span>
        </dd>
        <dt>{t("addressLabel")}</dt>
        <dd dir="ltr">{connection.baseUrl}</dd>
        <dt>{t("ownerLabel")}</dt>
        <dd>{teamName ?? t("personal")}</dd>
        <dt>{t("credentialsLabel")}</dt>
        <dd dir="ltr">{connection.credentialsHint}</dd>
        <dt>{t("lastSync")}</dt>
        <dd>
          {connection.lastSyncAt
            ? format.dateTime(new Date(connection.lastSyncAt), { dateStyle: "medium", timeStyle: "short" })
            : t("never")}
        </dd>
        {connection.lastError && (
          <>
            <dt>{t("lastError")}</dt>
            <dd className="connection-error">{connection.lastError}</dd>
          </>
        )}
        <dt>{t("webhookLabel")}</dt>
        <dd dir="ltr" className="connection-code">
          {connection.webhookPath}
        </dd>
      </dl>
      <p className={notice?.kind === "error" ? "auth-form-error" : "auth-status"} role="status">
        {notice?.text}
      </p>
      {lastRun && <RunSummary run={lastRun} />}
      {secret && <WebhookSecret secret={secret} url={connection.webhookPath} onDone={() => setSecret(null)} />}
      <div className="settings-actions">
        <button className="button" type="button" disabled={busy} onClick={() => void check()}>
          {t("check")}
        </button>
        {connection.canManage && (
          <>
            <button className="button" type="button" disabled={busy} onClick={() => void runNow("import")}>
              {t("import")}
            </button>
            <button className="button" type="button" disabled={busy} onClick={() => void runNow("export")}>
              {t("export")}
            </button>
            <button className="button" type="button" disabled={busy} onClick={() => void rotate()}>
              {t("rotate")}
            </button>
          </>
        )}
        <button
          className="button"
          type="button"
          disabled={busy}
          aria-expanded={runs !== null}
          onClick={() => (runs ? setRuns(null) : void loadRuns())}
        >
          {runs ? t("hideRuns") : t("showRuns")}
        </button>
        {connection.canManage && !confirmDelete && (
          <button className="button danger" type="button" disabled={busy} onClick={() => setConfirmDelete(true)}>
            {t("delete")}
          </button>
        )}
      </div>
      {confirmDelete && (
        <div className="settings-actions" role="group" aria-label={t("confirmDelete", { name: connection.name })}>
          <p className="settings-warning">{t("confirmDelete", { name: connection.name })}</p>
          <button className="button danger" type="button" disabled={busy} onClick={() => void remove()}>
            {t("confirmDeleteYes")}
          </button>
          <button className="button" type="button" onClick={() => setConfirmDelete(false)}>
            {t("cancel")}
          </button>
        </div>
      )}
      {runs && (
        <section aria-label={t("runsTitle")}>
          <h4>{t("runsTitle")}</h4>
          {runs.length === 0 ? (
            <p>{t("runsEmpty")}</p>
          ) : (
            <ol className="connection-runs">
              {runs.map((run) => (
                <li key={run.id}>
                  <RunSummary run={run} />
                </li>
              ))}
            </ol>
          )}
        </section>
      )}
    </li>
  );
}
