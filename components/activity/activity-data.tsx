"use client";

import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { api } from "@/lib/api-client/client";
import { FormError } from "@/components/auth/form-field";

/*
 * Deleting everything the user's apps reported (`DELETE /activity/records?all=true`), after a second click to
 * confirm; the page is then rendered again from the server, empty.
 */

export function ActivityData() {
  const t = useTranslations("Activity");
  const router = useRouter();
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [deleted, setDeleted] = useState<number | null>(null);
  const [error, setError] = useState<string>();

  async function remove() {
    setBusy(true);
    setError(undefined);
    try {
      const answer = await api.DELETE("/api/v1/activity/records", { params: { query: { all: "true" } } });
      if (answer.ok) {
        setDeleted(answer.body.deleted);
        setConfirming(false);
        router.refresh();
      } else {
        setError(answer.status === 401 ? t("errorSignedOut") : t("errorGeneric"));
      }
    } catch {
      setError(t("errorGeneric"));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="activity-card" aria-labelledby="activity-data-title">
      <header className="activity-card-intro">
        <h2 id="activity-data-title">{t("dataTitle")}</h2>
        <p className="activity-muted">{t("dataLead")}</p>
      </header>
      <p className="activity-status" role="status">
        {deleted !== null ? t("dataDeleted", { count: deleted }) : ""}
      </p>
      <FormError id="activity-data-error" message={error} />
      <div className="activity-actions">
        {confirming ? (
          <>
            <button className="button activity-danger" type="button" onClick={remove} disabled={busy} aria-busy={busy}>
              {t("dataDeleteConfirm")}
            </button>
            <button className="button" type="button" onClick={() => setConfirming(false)} disabled={busy}>
              {t("dataDeleteCancel")}
            </button>
          </>
        ) : (
          <button className="button" type="button" onClick={() => setConfirming(true)}>
            {t("dataDelete")}
          </button>
        )}
      </div>
    </section>
  );
}
