"use client";

import { useTranslations } from "next-intl";
import { useState } from "react";
import { api } from "@/lib/api-client/client";

/**
 * Signs out on this browser (`POST /api/v1/auth/logout` clears the session cookie) and loads `destination` with a
 * full page load, so that nothing signed-in stays on screen. An already expired session (401) counts as signed out.
 */
export function SignOutButton({ destination }: { destination: string }) {
  const t = useTranslations("Security");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();

  async function signOut() {
    if (busy) return;
    setBusy(true);
    setError(undefined);
    try {
      const answer = await api.POST("/api/v1/auth/logout");
      if (answer.ok || answer.status === 401) return window.location.assign(destination);
      setError(t("errorSignOut"));
    } catch {
      setError(t("errorSignOut"));
    }
    setBusy(false);
  }

  return (
    <>
      <p className="auth-form-error" role="alert">
        {error}
      </p>
      <button className="button" type="button" onClick={() => void signOut()} disabled={busy} aria-busy={busy}>
        {busy ? t("working") : t("signOut")}
      </button>
    </>
  );
}
