"use client";

import { useFormatter, useTranslations } from "next-intl";
import { useCallback, useEffect, useRef, useState } from "react";
import { invalidFields } from "./call-api";
import { api } from "@/lib/api-client/client";
import { FormError, TextField } from "./form-field";
import { SecurityListItem } from "./security-list-item";

/*
 * The signed-in user's personal access tokens on /{locale}/settings/security (`GET /api/v1/tokens`): each with its
 * name, the first characters of its secret, its scopes and dates. "Make a token" (`POST /api/v1/tokens`) opens a
 * dialog with the secret, the only time it is shown, and a button that copies it; "Revoke"
 * (`DELETE /api/v1/tokens/{id}`) stops a token at once. Outcomes are announced in a status region, failures as alerts.
 */

interface AccessToken {
  id: string;
  name: string;
  scopes: ("read" | "write")[];
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
  expired: boolean;
}

const NAME_MAX = 100;
/** The expiries the form offers, in days; 0: never. */
const EXPIRY_DAYS = [30, 90, 365, 0] as const;

export function AccessTokenManager({ signInHref }: { signInHref: string }) {
  const t = useTranslations("Security");
  const format = useFormatter();
  const [tokens, setTokens] = useState<AccessToken[] | null>(null);
  const [loadFailed, setLoadFailed] = useState(false);
  const [status, setStatus] = useState("");
  const [busy, setBusy] = useState<string | null>(null);
  const [rowError, setRowError] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  const [formError, setFormError] = useState<{ form?: string; name?: string }>({});
  const [secret, setSecret] = useState<{ name: string; token: string } | null>(null);
  const [copied, setCopied] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  const dialog = useRef<HTMLDialogElement>(null);

  const load = useCallback(async () => {
    try {
      const answer = await api.GET("/api/v1/tokens");
      if (answer.status === 401) return window.location.assign(signInHref);
      if (!answer.ok) return setLoadFailed(true);
      setTokens(answer.body.items);
      setLoadFailed(false);
    } catch {
      setLoadFailed(true);
    }
  }, [signInHref]);

  useEffect(() => {
    void load();
  }, [load]);

  useEffect(() => {
    if (secret && !dialog.current?.open) dialog.current?.showModal();
  }, [secret]);

  const date = (iso: string) => format.dateTime(new Date(iso), { dateStyle: "medium", timeStyle: "short" });

  async function create(form: HTMLFormElement) {
    const data = new FormData(form);
    const name = String(data.get("name") ?? "").trim();
    if (!name || name.length > NAME_MAX) return setFormError({ name: t("errorName", { max: NAME_MAX }) });
    const days = Number(data.get("expiry"));
    const answer = await api.POST("/api/v1/tokens", {
      body: {
        name,
        scopes: data.get("scope") === "write" ? ["read", "write"] : ["read"],
        expiresAt: days > 0 ? new Date(Date.now() + days * 86_400_000).toISOString() : null,
      },
    });
    if (answer.status === 401) return window.location.assign(signInHref);
    if (answer.status === 400 && invalidFields(answer.body).includes("name")) {
      return setFormError({ name: t("errorName", { max: NAME_MAX }) });
    }
    if (answer.status === 409) return setFormError({ form: t("tokensTooMany") });
    if (answer.status === 429) return setFormError({ form: t("errorRateLimited") });
    if (!answer.ok) return setFormError({ form: t("errorGeneric") });
    const { token, ...made } = answer.body;
    setTokens((list) => [made, ...(list ?? [])]);
    form.reset();
    setCopied(false);
    setSecret({ name: made.name, token });
  }

  async function revoke(token: AccessToken) {
    if (busy) return;
    setBusy(token.id);
    setRowError(null);
    try {
      const answer = await api.DELETE("/api/v1/tokens/{id}", { params: { path: { id: token.id } } });
      if (answer.status === 401) return window.location.assign(signInHref);
      if (answer.status !== 204 && answer.status !== 404) return setRowError(token.id);
      setTokens((list) => list?.filter((item) => item.id !== token.id) ?? null);
      heading.current?.focus();
      setStatus(t("tokenRevoked", { name: token.name }));
    } catch {
      setRowError(token.id);
    } finally {
      setBusy(null);
    }
  }

  async function copy() {
    if (!secret) return;
    try {
      await navigator.clipboard.writeText(secret.token);
      setCopied(true);
    } catch {
      // Without clipboard access the secret stays selectable in the field.
      document.getElementById("token-secret")?.focus();
    }
  }

  function closeDialog() {
    dialog.current?.close();
  }

  return (
    <section className="auth-card" aria-labelledby="tokens-title">
      <h2 id="tokens-title" ref={heading} tabIndex={-1}>
        {t("tokensTitle")}
      </h2>
      <p className="auth-lead">{t("tokensLead")}</p>
      <p className="auth-status" role="status">
        {status}
      </p>
      {tokens === null && !loadFailed && <p className="passkey-empty">{t("tokensLoading")}</p>}
      {loadFailed && (
        <div className="passkey-load-error">
          <p role="alert">{t("tokensLoadError")}</p>
          <button className="button" type="button" onClick={() => void load()}>
            {t("retry")}
          </button>
        </div>
      )}
      {tokens !== null && tokens.length === 0 && <p className="passkey-empty">{t("tokensEmpty")}</p>}
      {tokens !== null && tokens.length > 0 && (
        <ul className="passkey-list" aria-labelledby="tokens-title">
          {tokens.map((token) => (
            <SecurityListItem
              key={token.id}
              idPrefix={`token-${token.id}`}
              attributes={{ "data-token-id": token.id }}
              name={token.name}
              label={
                <>
                  <bdi dir="ltr">{token.prefix}…</bdi> ·{" "}
                  {t("tokenScope", { scope: token.scopes.includes("write") ? "write" : "read" })}
                </>
              }
              facts={[
                { term: t("createdLabel"), value: <time dateTime={token.createdAt}>{date(token.createdAt)}</time> },
                {
                  term: t("lastUsedLabel"),
                  value: token.lastUsedAt ? <time dateTime={token.lastUsedAt}>{date(token.lastUsedAt)}</time> : t("neverUsed"),
                },
                {
                  term: token.expired ? t("tokenExpiredLabel") : t("tokenExpiresLabel"),
                  value: token.expiresAt ? (
                    <time dateTime={token.expiresAt}>{date(token.expiresAt)}</time>
                  ) : (
                    t("tokenNeverExpires")
                  ),
                },
              ]}
              error={rowError === token.id ? t("errorGeneric") : null}
              action={{
                label: t("tokenRevoke"),
                workingLabel: t("working"),
                busy: busy === token.id,
                onClick: () => void revoke(token),
              }}
            />
          ))}
        </ul>
      )}

      <h3 id="token-create-title">{t("tokenCreateTitle")}</h3>
      <FormError id="token-create-error" message={formError.form} />
      <form
        className="auth-form"
        noValidate
        aria-labelledby="token-create-title"
        aria-describedby={formError.form ? "token-create-error" : undefined}
        onSubmit={async (event) => {
          event.preventDefault();
          if (creating) return;
          const form = event.currentTarget;
          setCreating(true);
          setFormError({});
          setStatus("");
          try {
            await create(form);
          } catch {
            setFormError({ form: t("errorGeneric") });
          } finally {
            setCreating(false);
          }
        }}
      >
        <TextField
          name="name"
          label={t("tokenNameLabel")}
          hint={t("tokenNameHint")}
          autoComplete="off"
          maxLength={NAME_MAX}
          required
          error={formError.name}
        />
        <fieldset className="auth-field">
          <legend>{t("tokenScopeLabel")}</legend>
          <label>
            <input type="radio" name="scope" value="read" defaultChecked /> {t("tokenScope", { scope: "read" })}
          </label>
          <label>
            <input type="radio" name="scope" value="write" /> {t("tokenScope", { scope: "write" })}
          </label>
        </fieldset>
        <div className="auth-field">
          <label htmlFor="token-expiry">{t("tokenExpiryLabel")}</label>
          <select id="token-expiry" name="expiry" defaultValue="90">
            {EXPIRY_DAYS.map((days) => (
              <option key={days} value={days}>
                {days === 0 ? t("tokenNeverExpires") : t("tokenExpiryDays", { days })}
              </option>
            ))}
          </select>
        </div>
        <button className="button primary" type="submit" disabled={creating} aria-busy={creating}>
          {creating ? t("working") : t("tokenCreate")}
        </button>
      </form>

      <dialog
        ref={dialog}
        className="token-dialog"
        aria-labelledby="token-secret-title"
        onClose={() => {
          setSecret(null);
          setStatus(secret ? t("tokenCreated", { name: secret.name }) : "");
        }}
      >
        {secret && (
          <>
            <h3 id="token-secret-title">{t("tokenSecretTitle", { name: secret.name })}</h3>
            <p className="auth-lead">{t("tokenSecretLead")}</p>
            <div className="auth-field">
              <label htmlFor="token-secret">{t("tokenSecretLabel")}</label>
              <input
                id="token-secret"
                type="text"
                readOnly
                value={secret.token}
                dir="ltr"
                onFocus={(event) => event.currentTarget.select()}
              />
            </div>
            <p className="auth-status" role="status">
              {copied ? t("tokenCopied") : ""}
            </p>
            <div className="auth-buttons">
              <button className="button" type="button" onClick={() => void copy()}>
                {t("tokenCopy")}
              </button>
              <button className="button primary" type="button" onClick={closeDialog}>
                {t("tokenDone")}
              </button>
            </div>
          </>
        )}
      </dialog>
    </section>
  );
}
