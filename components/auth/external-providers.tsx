"use client";

import { useTranslations } from "next-intl";
import { useEffect, useState } from "react";
import { api } from "@/lib/api-client/client";

interface Provider {
  id: string;
  name: string;
}

/** A provider id as it may appear in a path (`google`, `github`, `microsoft`...). */
const PROVIDER_ID = /^[a-z0-9][a-z0-9_-]{0,39}$/;

/**
 * One entry of the list: `{ name: "google", label: "Google" }` as lib/oauth answers it, or `{ id: "google",
 * name: "Google" }`; null for anything else.
 */
function toProvider(item: unknown): Provider | null {
  if (!item || typeof item !== "object") return null;
  const { id, name, label } = item as Record<string, unknown>;
  const code = typeof id === "string" ? id : name;
  const text = typeof label === "string" && label ? label : typeof id === "string" ? name : undefined;
  if (typeof code !== "string" || !PROVIDER_ID.test(code) || typeof text !== "string" || !text) return null;
  return { id: code, name: text };
}

/** Where a provider's sign-in starts: with the browser's time zone, for the account a first sign-in creates. */
function startPath(id: string, returnTo: string): string {
  const query = new URLSearchParams({ returnTo });
  const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  if (timeZone) query.set("timeZone", timeZone);
  return `/auth/${id}?${query}`;
}

/**
 * Buttons for the external accounts the server has configured (`GET /api/v1/auth/providers`), each a plain link
 * to `/auth/{id}?returnTo=…&timeZone=…` that starts the provider's sign-in. Nothing at all is shown while the list loads,
 * when the call fails or when no provider is configured.
 */
export function ExternalProviders({ returnTo }: { returnTo: string }) {
  const t = useTranslations("SignIn");
  const [providers, setProviders] = useState<Provider[]>([]);

  useEffect(() => {
    let live = true;
    api
      .GET("/api/v1/auth/providers")
      .then((answer) => {
        if (!live || !answer.ok) return;
        setProviders(answer.body.items.map(toProvider).filter((provider): provider is Provider => provider !== null));
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, []);

  if (!providers.length) return null;
  return (
    <section className="auth-providers" aria-labelledby="auth-providers-title">
      <h2 id="auth-providers-title">{t("providersTitle")}</h2>
      <ul>
        {providers.map(({ id, name }) => (
          <li key={id}>
            <a className="button" href={startPath(id, returnTo)} data-provider={id}>
              {t("continueWith", { provider: name })}
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}
