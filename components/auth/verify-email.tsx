"use client";

import { useTranslations } from "next-intl";
import { useEffect, useState } from "react";
import { api } from "@/lib/api-client/client";
import { VERIFY_BANNER_COOKIE, VERIFY_BANNER_DISMISS_SECONDS } from "./verify-banner-cookie";

/*
 * Email verification in the pages: /{locale}/verify-email, opened from the emailed link (`#token=…`), confirms the
 * address at once (`POST /auth/verify-email`; no sign-in needed); and the banner every page shows a signed-in person
 * whose address is not confirmed, with "send the link again" (`POST /auth/verify-email/resend`) and a button that
 * hides it for a week (components/auth/verify-banner-cookie.ts).
 */

/** Told by the verification page once the address is confirmed, so that the banner on the same page goes away. */
const VERIFIED_EVENT = "spolu:email-verified";

type State = { kind: "checking" } | { kind: "verified"; email: string } | { kind: "failed"; message: string };

export function VerifyEmailStatus({ locale }: { locale: string }) {
  const t = useTranslations("VerifyEmail");
  const [state, setState] = useState<State>({ kind: "checking" });

  useEffect(() => {
    const token = new URLSearchParams(window.location.hash.slice(1)).get("token");
    window.history.replaceState(null, "", window.location.pathname);
    if (!token) return setState({ kind: "failed", message: t("errorLink") });
    api
      .POST("/api/v1/auth/verify-email", { body: { token } })
      .then((answer) => {
        if (answer.ok) {
          window.dispatchEvent(new Event(VERIFIED_EVENT));
          return setState({ kind: "verified", email: answer.body.email });
        }
        const message =
          answer.status === 400 ? t("errorLink") : answer.status === 429 ? t("errorRateLimited") : t("errorGeneric");
        setState({ kind: "failed", message });
      })
      .catch(() => setState({ kind: "failed", message: t("errorGeneric") }));
  }, [t]);

  return (
    <>
      <p className="auth-status" role="status">
        {state.kind === "checking" ? t("checking") : state.kind === "verified" ? t("verified", { email: state.email }) : ""}
      </p>
      <p className="auth-form-error" role="alert">
        {state.kind === "failed" ? state.message : ""}
      </p>
      {state.kind !== "checking" && (
        <p>
          <a className="button primary" href={`/${locale}/tasks`}>
            {t("continue")}
          </a>
        </p>
      )}
    </>
  );
}

export function VerifyEmailBanner({ email }: { email: string }) {
  const t = useTranslations("VerifyEmail");
  const [hidden, setHidden] = useState(false);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ ok: boolean; message: string } | null>(null);

  useEffect(() => {
    const hide = () => setHidden(true);
    window.addEventListener(VERIFIED_EVENT, hide);
    return () => window.removeEventListener(VERIFIED_EVENT, hide);
  }, []);

  async function resend() {
    setBusy(true);
    setOutcome(null);
    try {
      const answer = await api.POST("/api/v1/auth/verify-email/resend");
      if (answer.ok) setOutcome({ ok: true, message: t("sent", { email }) });
      // Verified meanwhile (in another tab): nothing left to ask for.
      else if (answer.status === 409) setHidden(true);
      else setOutcome({ ok: false, message: answer.status === 429 ? t("resendRateLimited") : t("resendFailed") });
    } catch {
      setOutcome({ ok: false, message: t("resendFailed") });
    } finally {
      setBusy(false);
    }
  }

  function dismiss() {
    document.cookie = `${VERIFY_BANNER_COOKIE}=dismissed; Path=/; Max-Age=${VERIFY_BANNER_DISMISS_SECONDS}; SameSite=Lax`;
    setHidden(true);
  }

  if (hidden) return null;
  return (
    <section className="verify-banner" aria-label={t("bannerLabel")}>
      <p className="verify-banner-text">{t("banner", { email })}</p>
      <div className="verify-banner-actions">
        <button className="button" type="button" onClick={() => void resend()} disabled={busy} aria-busy={busy}>
          {busy ? t("sending") : t("resend")}
        </button>
        <button className="button verify-banner-dismiss" type="button" onClick={dismiss}>
          {t("dismiss")}
        </button>
      </div>
      <p className={outcome?.ok === false ? "verify-banner-error" : "verify-banner-status"} role="status">
        {outcome?.message ?? ""}
      </p>
    </section>
  );
}
