"use client";

import { useFormatter, useTranslations } from "next-intl";
import { useCallback, useEffect, useState } from "react";
import type { IdentityListOutput, IdentityOutput, ProviderListOutput } from "@/lib/oauth/schema";
import { api } from "@/lib/api-client/client";

/*
 * The external accounts linked to the signed-in user's on /{locale}/settings/security (`GET
 * /api/v1/auth/identities`): each with its provider and address; linking another through a configured provider
 * (`POST /api/v1/auth/{provider}/link` answers the provider's address, where the browser goes; it comes back here
 * with `?linked=` or `?linkError=`); unlinking one (`DELETE /api/v1/auth/identities/{id}`), which the API refuses
 * (409) while it is the only way to sign in.
 */

type LinkError = "exists" | "expired" | "cancelled" | "failed";
const LINK_ERRORS: readonly string[] = ["exists", "expired", "cancelled", "failed"] satisfies LinkError[];
/** The providers' names as people know them, for `?linked=<provider>`. */
const LABELS: Record<string, string | undefined> = { google: "Google", microsoft: "Microsoft", github: "GitHub" };

interface LinkedAccountsProps {
  signInHref: string;
  /** This page's path, where the provider sends the browser back. */
  here: string;
  /** `?linked=<provider>` or `?linkError=<reason>` of the page's address, after coming back from a provider. */
  linked?: string;
  linkError?: string;
}

export function LinkedAccounts({ signInHref, here, linked, linkError }: LinkedAccountsProps) {
  const t = useTranslations("LinkedAccounts");
  const format = useFormatter();
  const [list, setList] = useState<IdentityListOutput | null>(null);
  const [providers, setProviders] = useState<ProviderListOutput["items"]>([]);
  const [loadFailed, setLoadFailed] = useState(false);
  const [busy, setBusy] = useState<string | null>(null);
  const [status, setStatus] = useState(() => {
    const label = linked && LABELS[linked];
    return label ? t("linked", { provider: label }) : "";
  });
  const [error, setError] = useState(() =>
    linkError ? t(`linkError.${LINK_ERRORS.includes(linkError) ? (linkError as LinkError) : "failed"}`) : "",
  );

  const load = useCallback(async () => {
    const [identities, offered] = await Promise.all([
      api.GET("/api/v1/auth/identities").catch(() => null),
      api.GET("/api/v1/auth/providers").catch(() => null),
    ]);
    if (identities?.status === 401) return window.location.assign(signInHref);
    if (!identities?.ok) return setLoadFailed(true);
    setLoadFailed(false);
    setList(identities.body);
    setProviders(offered?.ok ? offered.body.items : []);
  }, [signInHref]);

  useEffect(() => {
    void load();
  }, [load]);

  async function link(provider: string) {
    setBusy(`link-${provider}`);
    setError("");
    const answer = await api
      .POST("/api/v1/auth/{provider}/link", { params: { path: { provider } }, body: { returnTo: here } })
      .catch(() => null);
    if (answer?.ok) return window.location.assign(answer.body.url);
    setBusy(null);
    if (answer?.status === 401) return window.location.assign(signInHref);
    setError(t("errorGeneric"));
  }

  async function unlink(identity: IdentityOutput) {
    setBusy(identity.id);
    setError("");
    setStatus("");
    const answer = await api.DELETE("/api/v1/auth/identities/{id}", { params: { path: { id: identity.id } } }).catch(() => null);
    setBusy(null);
    if (answer?.ok || answer?.status === 404) {
      setStatus(t("unlinked", { provider: identity.label }));
      return void load();
    }
    if (answer?.status === 401) return window.location.assign(signInHref);
    setError(answer?.status === 409 ? t("errorLastMethod", { provider: identity.label }) : t("errorGeneric"));
  }

  const date = (iso: string) => format.dateTime(new Date(iso), { dateStyle: "medium", timeStyle: "short" });

  return (
    <section className="auth-card" aria-labelledby="linked-title">
      <h2 id="linked-title">{t("title")}</h2>
      <p className="auth-lead">{t("lead")}</p>
      <p className="auth-status" role="status">
        {status}
      </p>
      {error && (
        <p className="auth-form-error" role="alert">
          {error}
        </p>
      )}
      {list === null && !loadFailed && <p className="passkey-empty">{t("loading")}</p>}
      {loadFailed && (
        <div className="passkey-load-error">
          <p role="alert">{t("loadError")}</p>
          <button className="button" type="button" onClick={() => void load()}>
            {t("retry")}
          </button>
        </div>
      )}
      {list !== null && list.items.length === 0 && <p className="passkey-empty">{t("empty")}</p>}
      {list !== null && list.items.length > 0 && (
        <ul className="passkey-list" aria-labelledby="linked-title">
          {list.items.map((identity) => {
            const nameId = `identity-${identity.id}-name`;
            return (
              <li key={identity.id} className="passkey" data-identity-provider={identity.provider} aria-labelledby={nameId}>
                <div className="passkey-body">
                  <h3 id={nameId} className="passkey-name">
                    {identity.label}
                  </h3>
                  {identity.email && (
                    <p className="passkey-label" dir="ltr">
                      {identity.email}
                    </p>
                  )}
                  <dl className="passkey-dates">
                    <div>
                      <dt>{t("linkedAt")}</dt>
                      <dd>
                        <time dateTime={identity.createdAt}>{date(identity.createdAt)}</time>
                      </dd>
                    </div>
                    {identity.lastUsedAt && (
                      <div>
                        <dt>{t("lastUsed")}</dt>
                        <dd>
                          <time dateTime={identity.lastUsedAt}>{date(identity.lastUsedAt)}</time>
                        </dd>
                      </div>
                    )}
                  </dl>
                </div>
                <div className="passkey-actions">
                  <button
                    className="button"
                    type="button"
                    disabled={busy !== null}
                    aria-busy={busy === identity.id}
                    aria-describedby={nameId}
                    onClick={() => void unlink(identity)}
                  >
                    {t("unlink")}
                  </button>
                </div>
              </li>
            );
          })}
        </ul>
      )}
      {list !== null && providers.length > 0 && (
        <div className="auth-buttons">
          {providers.map((provider) => (
            <button
              key={provider.name}
              className="button"
              type="button"
              disabled={busy !== null}
              aria-busy={busy === `link-${provider.name}`}
              onClick={() => void link(provider.name)}
            >
              {t("link", { provider: provider.label })}
            </button>
          ))}
        </div>
      )}
    </section>
  );
}
