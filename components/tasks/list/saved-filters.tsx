"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useId, useState, type FormEvent } from "react";
import { api } from "@/lib/api-client/client";
import { writeFailure } from "./quick-add";

interface SavedFilter {
  id: string;
  name: string;
  /** The list page's query string, without the `?`. */
  query: string;
}

interface Props {
  locale: string;
  items: readonly SavedFilter[];
  /** The shown list's query string (filtersToSearch): what "Save these filters" keeps, and which saved one is open. */
  currentQuery: string;
  /** The most a person keeps (lib/saved-filters), for the message when that is reached. */
  max: number;
}

/**
 * The user's saved filters in the list's sidebar: each a link to the list with its filters and a button that
 * deletes it, and "Save these filters" naming the shown list's filters. After a change the page is rendered again
 * (router.refresh), so the list here is always the server's. What happened is said in a polite live region.
 */
export function SavedFilters({ locale, items, currentQuery, max }: Props) {
  const t = useTranslations("TaskList");
  const router = useRouter();
  const id = useId();
  const [naming, setNaming] = useState(false);
  const [name, setName] = useState("");
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState("");
  const [error, setError] = useState("");

  async function save(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError("");
    const answer = await api.POST("/api/v1/saved-filters", { body: { name, query: currentQuery } }).catch(() => null);
    setBusy(false);
    if (answer?.ok) {
      setStatus(t("savedFilters.saved", { name: answer.body.name }));
      setNaming(false);
      setName("");
      router.refresh();
    } else if (answer?.status === 409) setError(t("savedFilters.limit", { max }));
    else setError(t("savedFilters.failed", { reason: writeFailure(t, { ok: false, answer }) }));
  }

  async function remove(filter: SavedFilter) {
    setError("");
    const answer = await api.DELETE("/api/v1/saved-filters/{id}", { params: { path: { id: filter.id } } }).catch(() => null);
    if (answer?.ok || answer?.status === 404) {
      setStatus(t("savedFilters.deleted", { name: filter.name }));
      router.refresh();
    } else setError(t("savedFilters.failed", { reason: writeFailure(t, { ok: false, answer }) }));
  }

  return (
    <section className="saved-filters" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="saved-filters-title">
        {t("savedFilters.title")}
      </h2>
      {items.length > 0 && (
        <ul>
          {items.map((filter) => (
            <li key={filter.id}>
              <Link
                href={`/${locale}/tasks${filter.query ? `?${filter.query}` : ""}`}
                prefetch={false}
                aria-current={filter.query === currentQuery ? "page" : undefined}
                dir="auto"
              >
                {filter.name}
              </Link>
              <button
                type="button"
                className="saved-filters-delete"
                aria-label={t("savedFilters.delete", { name: filter.name })}
                onClick={() => remove(filter)}
              >
                <span aria-hidden="true">×</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      {naming ? (
        <form className="saved-filters-form" onSubmit={save}>
          <label htmlFor={`${id}-name`}>{t("savedFilters.name")}</label>
          <input
            id={`${id}-name`}
            value={name}
            onChange={(event) => setName(event.currentTarget.value)}
            maxLength={100}
            required
            autoFocus
            dir="auto"
          />
          <div className="saved-filters-actions">
            <button className="button primary" type="submit" disabled={busy} aria-busy={busy || undefined}>
              {t("savedFilters.save")}
            </button>
            <button className="button" type="button" onClick={() => setNaming(false)}>
              {t("savedFilters.cancel")}
            </button>
          </div>
        </form>
      ) : (
        <button className="button saved-filters-new" type="button" onClick={() => setNaming(true)}>
          {t("savedFilters.saveCurrent")}
        </button>
      )}
      <p className="visually-hidden" role="status">
        {status}
      </p>
      <p className="tasks-error" role="alert">
        {error}
      </p>
    </section>
  );
}
