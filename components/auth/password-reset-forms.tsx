"use client";

import { useTranslations } from "next-intl";
import { useEffect, useRef, useState } from "react";
import { fieldErrors } from "./call-api";
import { api } from "@/lib/api-client/client";
import { FormError, TextField } from "./form-field";

/*
 * The forms of a forgotten password: /{locale}/forgot-password asks for the link (`POST /auth/password-reset`,
 * which answers the same whether or not an account uses the address, and so does this form), and
 * /{locale}/reset-password, opened from the emailed link (`#token=…`, a fragment: never sent to a server), sets the
 * new password (`POST /auth/password-reset/confirm`), which signs the person in; the page then opens their tasks.
 */

export function ForgotPasswordForm() {
  const t = useTranslations("PasswordReset");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ form?: string; email?: string }>({});
  const [sentTo, setSentTo] = useState<string | null>(null);

  async function request(email: string) {
    if (!email) return setError({ form: t("errorSummary"), email: t("errorEmail") });
    const answer = await api.POST("/api/v1/auth/password-reset", { body: { email } });
    if (answer.ok) return setSentTo(email);
    if (answer.status === 400) return setError({ form: t("errorSummary"), email: t("errorEmail") });
    setError({ form: answer.status === 429 ? t("errorRateLimited") : t("errorGeneric") });
  }

  return (
    <>
      <FormError id="forgot-error" message={error.form} />
      <p className="auth-status" role="status">
        {sentTo ? t("requested", { email: sentTo }) : ""}
      </p>
      <form
        className="auth-form"
        noValidate
        aria-describedby={error.form ? "forgot-error" : undefined}
        onSubmit={async (event) => {
          event.preventDefault();
          if (busy) return;
          const email = String(new FormData(event.currentTarget).get("email") ?? "").trim();
          setBusy(true);
          setError({});
          setSentTo(null);
          try {
            await request(email);
          } catch {
            setError({ form: t("errorGeneric") });
          } finally {
            setBusy(false);
          }
        }}
      >
        <TextField name="email" type="email" label={t("emailLabel")} autoComplete="email" required error={error.email} />
        <button className="button primary" type="submit" disabled={busy} aria-busy={busy}>
          {busy ? t("working") : t("requestSubmit")}
        </button>
      </form>
    </>
  );
}

/** The token of the emailed link, from the page's fragment (`#token=…`); null without one. */
function tokenFromFragment(): string | null {
  return new URLSearchParams(window.location.hash.slice(1)).get("token");
}

export function ResetPasswordForm({ locale, passwordMin }: { locale: string; passwordMin: number }) {
  const t = useTranslations("PasswordReset");
  const token = useRef<string | null>(null);
  const [linkBroken, setLinkBroken] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ form?: string; password?: string }>({});
  const [done, setDone] = useState(false);

  useEffect(() => {
    token.current = tokenFromFragment();
    if (!token.current) setLinkBroken(true);
    // The token leaves the address bar (and the history entry): it is kept in memory until it is used.
    else window.history.replaceState(null, "", window.location.pathname);
  }, []);

  async function save(password: string) {
    if (!token.current) return setLinkBroken(true);
    if (!password) return setError({ form: t("errorSummary"), password: t("errorPassword", { min: passwordMin }) });
    const answer = await api.POST("/api/v1/auth/password-reset/confirm", { body: { token: token.current, password } });
    if (answer.ok) {
      setDone(true);
      return window.location.assign(`/${answer.body.user.locale}/tasks`);
    }
    if (answer.status === 400) {
      const fields = fieldErrors(answer.body, { token: "", password: t("errorPassword", { min: passwordMin }) });
      if ("token" in fields) return setLinkBroken(true);
      if (fields.password) return setError({ form: t("errorSummary"), password: fields.password });
    }
    if (answer.status === 403) return setError({ form: t("errorAccountDisabled") });
    setError({ form: answer.status === 429 ? t("errorRateLimited") : t("errorGeneric") });
  }

  if (linkBroken) {
    return (
      <>
        <p className="auth-form-error" role="alert">
          {t("errorLink")}
        </p>
        <p>
          <a className="button primary" href={`/${locale}/forgot-password`}>
            {t("askAgain")}
          </a>
        </p>
      </>
    );
  }

  return (
    <>
      <FormError id="reset-error" message={error.form} />
      <p className="auth-status" role="status">
        {done ? t("done") : ""}
      </p>
      <form
        className="auth-form"
        noValidate
        aria-describedby={error.form ? "reset-error" : undefined}
        onSubmit={async (event) => {
          event.preventDefault();
          if (busy || done) return;
          const password = String(new FormData(event.currentTarget).get("password") ?? "");
          setBusy(true);
          setError({});
          try {
            await save(password);
          } catch {
            setError({ form: t("errorGeneric") });
          } finally {
            setBusy(false);
          }
        }}
      >
        <TextField
          name="password"
          type="password"
          label={t("passwordLabel")}
          autoComplete="new-password"
          required
          hint={t("passwordHint", { min: passwordMin })}
          error={error.password}
        />
        <button className="button primary" type="submit" disabled={busy || done} aria-busy={busy}>
          {busy ? t("working") : t("resetSubmit")}
        </button>
      </form>
    </>
  );
}
