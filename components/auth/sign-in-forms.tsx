"use client";

import {
  browserSupportsWebAuthn,
  startAuthentication,
  type PublicKeyCredentialRequestOptionsJSON,
} from "@simplewebauthn/browser";
import { useTranslations } from "next-intl";
import { useRef, useState } from "react";
import type { AuthResultOutput } from "@/lib/accounts/schema";
import { isLocale, type Locale } from "@/lib/i18n/locales";
import { ceremonyFailure, fieldErrors, invalidFields, withExtensions } from "./call-api";
import { api } from "@/lib/api-client/client";
import { FingerprintIcon } from "./device-icon";
import { FormError, TextField } from "./form-field";

/*
 * The forms of /{locale}/sign-in: sign in with email and password (`POST /auth/login`) or with a passkey on this
 * device (`POST /webauthn/auth/options` → the browser's WebAuthn prompt → `POST /webauthn/auth/verify`), and the
 * registration form (`POST /auth/register`). Every success sets the session cookie (and the language cookie:
 * lib/api/session-cookie.ts); the page then loads `next` (a same-site path, checked by the server page) or the
 * user's tasks in their own language. Errors are announced (role=alert) and never show what the server said
 * verbatim.
 */

type Errors = { form?: string; fields: Partial<Record<"name" | "email" | "password", string>> };
const NO_ERRORS: Errors = { fields: {} };

interface Props {
  /** Spolu's locale code from the URL (`ua`, not `uk`). */
  locale: string;
  /** Where to go once signed in, when the page was given a place; else the user's tasks. */
  next: string | null;
}

/**
 * Leaves the page for `next`, else for the user's tasks in their profile's language (`userLocale`), with a full
 * load, so that every page reads the new cookies.
 */
function enter(next: string | null, userLocale: string) {
  window.location.assign(next ?? `/${userLocale}/tasks`);
}

export function SignInForm({ locale, next }: Props) {
  const t = useTranslations("SignIn");
  const [busy, setBusy] = useState<"password" | "passkey" | null>(null);
  const [errors, setErrors] = useState<Errors>(NO_ERRORS);
  const [signedIn, setSignedIn] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  const emailInput = useRef<HTMLInputElement>(null);

  /** A refusal that is not about the credentials: too many attempts, or an account an administrator disabled. */
  function refusalOr(answer: { status: number; body: unknown }, otherwise: string): string {
    if (answer.status === 403 && (answer.body as { code?: string } | null)?.code === "account_disabled")
      return t("errorAccountDisabled");
    return answer.status === 429 ? t("errorRateLimited") : otherwise;
  }

  async function withPassword(data: FormData) {
    const email = String(data.get("email") ?? "");
    const password = String(data.get("password") ?? "");
    if (!email.trim() || !password) {
      return setErrors({
        form: t("errorSummary"),
        fields: {
          email: email.trim() ? undefined : t("errorEmailRequired"),
          password: password ? undefined : t("errorPasswordRequired"),
        },
      });
    }
    const login = await api.POST("/api/v1/auth/login", { body: { email, password } });
    if (login.ok) return succeed(login.body);
    if (login.status === 400 || login.status === 401) return setErrors({ form: t("errorWrongCredentials"), fields: {} });
    setErrors({ form: refusalOr(login, t("errorGeneric")), fields: {} });
  }

  async function withPasskey(data: FormData) {
    const email = String(data.get("email") ?? "").trim();
    if (!email) {
      setErrors({ form: t("errorEmailForPasskey"), fields: { email: t("errorEmailRequired") } });
      return emailInput.current?.focus();
    }
    if (!browserSupportsWebAuthn()) return setErrors({ form: t("errorPasskeyUnsupported"), fields: {} });
    const options = await api.POST("/api/v1/webauthn/auth/options", { body: { email } });
    if (options.status === 400) return setErrors({ form: t("errorSummary"), fields: { email: t("errorEmail") } });
    if (!options.ok) return setErrors({ form: refusalOr(options, t("errorGeneric")), fields: {} });
    let response;
    try {
      // The schema types WebAuthn's enumerations as strings; @simplewebauthn/browser checks the options it is given.
      response = await startAuthentication({ optionsJSON: options.body as PublicKeyCredentialRequestOptionsJSON });
    } catch (error) {
      const failure = ceremonyFailure(error);
      const message =
        failure === "cancelled"
          ? t("errorPasskeyCancelled")
          : failure === "unsupported"
            ? t("errorPasskeyUnsupported")
            : t("errorPasskeyFailed");
      return setErrors({ form: message, fields: {} });
    }
    const verified = await api.POST("/api/v1/webauthn/auth/verify", { body: { email, response: withExtensions(response) } });
    if (verified.ok) return succeed(verified.body);
    if (verified.status === 400 || verified.status === 401 || verified.status === 404)
      return setErrors({ form: t("errorPasskeyRefused"), fields: {} });
    setErrors({ form: refusalOr(verified, t("errorGeneric")), fields: {} });
  }

  function succeed(result: AuthResultOutput | null) {
    setSignedIn(true);
    enter(next, result?.user.locale ?? locale);
  }

  async function run(which: "password" | "passkey") {
    if (busy || signedIn || !form.current) return;
    const data = new FormData(form.current);
    setBusy(which);
    setErrors(NO_ERRORS);
    try {
      await (which === "password" ? withPassword(data) : withPasskey(data));
    } catch {
      setErrors({ form: t("errorGeneric"), fields: {} });
    } finally {
      setBusy(null);
    }
  }

  return (
    <>
      <FormError id="sign-in-error" message={errors.form} />
      <p className="auth-status" role="status">
        {signedIn ? t("signedIn") : ""}
      </p>
      <form
        ref={form}
        className="auth-form"
        noValidate
        aria-describedby={errors.form ? "sign-in-error" : undefined}
        onSubmit={(event) => {
          event.preventDefault();
          void run("password");
        }}
      >
        <TextField
          name="email"
          type="email"
          label={t("emailLabel")}
          autoComplete="username webauthn"
          required
          error={errors.fields.email}
          inputRef={emailInput}
        />
        <TextField
          name="password"
          type="password"
          label={t("passwordLabel")}
          autoComplete="current-password"
          error={errors.fields.password}
        />
        <p className="auth-forgot">
          <a href={`/${locale}/forgot-password`}>{t("forgotPassword")}</a>
        </p>
        <button className="button primary" type="submit" disabled={busy !== null || signedIn} aria-busy={busy === "password"}>
          {busy === "password" ? t("working") : t("submit")}
        </button>
        <p className="auth-divider" aria-hidden="true">
          <span>{t("or")}</span>
        </p>
        <button
          className="button auth-passkey-button"
          type="button"
          disabled={busy !== null || signedIn}
          aria-busy={busy === "passkey"}
          aria-describedby="sign-in-passkey-hint"
          onClick={() => void run("passkey")}
        >
          <FingerprintIcon size={20} />
          <span>{busy === "passkey" ? t("working") : t("passkeySubmit")}</span>
        </button>
        <p id="sign-in-passkey-hint" className="auth-hint">
          {t("passkeyHint")}
        </p>
      </form>
    </>
  );
}

export function RegisterForm({ locale, next, passwordMin }: Props & { passwordMin: number }) {
  const t = useTranslations("SignIn");
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<Errors>(NO_ERRORS);
  const [registered, setRegistered] = useState(false);

  async function register(data: FormData) {
    const json: { name: string; email: string; password: string; locale?: Locale; timeZone?: string } = {
      name: String(data.get("name") ?? ""),
      email: String(data.get("email") ?? ""),
      password: String(data.get("password") ?? ""),
      ...(isLocale(locale) ? { locale } : {}),
    };
    const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    if (timeZone) json.timeZone = timeZone;
    let answer = await api.POST("/api/v1/auth/register", { body: json });
    // A time zone the server does not know is no reason to refuse the account: it then keeps its default.
    if (answer.status === 400 && invalidFields(answer.body).every((field) => field === "timeZone") && json.timeZone) {
      delete json.timeZone;
      answer = await api.POST("/api/v1/auth/register", { body: json });
    }
    if (answer.ok) {
      setRegistered(true);
      return enter(next, answer.body.user.locale);
    }
    if (answer.status === 409) return setErrors({ form: t("errorEmailTaken"), fields: {} });
    if (answer.status === 400) {
      const messages = { name: t("errorName"), email: t("errorEmail"), password: t("errorPassword", { min: passwordMin }) };
      const fields = fieldErrors(answer.body, messages);
      return setErrors({ form: Object.keys(fields).length ? t("errorSummary") : t("errorGeneric"), fields });
    }
    setErrors({ form: answer.status === 429 ? t("errorRateLimited") : t("errorGeneric"), fields: {} });
  }

  return (
    <>
      <FormError id="register-error" message={errors.form} />
      <p className="auth-status" role="status">
        {registered ? t("registered") : ""}
      </p>
      <form
        className="auth-form"
        noValidate
        aria-describedby={errors.form ? "register-error" : undefined}
        onSubmit={async (event) => {
          event.preventDefault();
          if (busy || registered) return;
          const data = new FormData(event.currentTarget);
          setBusy(true);
          setErrors(NO_ERRORS);
          try {
            await register(data);
          } catch {
            setErrors({ form: t("errorGeneric"), fields: {} });
          } finally {
            setBusy(false);
          }
        }}
      >
        <TextField name="name" label={t("nameLabel")} autoComplete="name" required maxLength={100} error={errors.fields.name} />
        <TextField name="email" type="email" label={t("emailLabel")} autoComplete="email" required error={errors.fields.email} />
        <TextField
          name="password"
          type="password"
          label={t("passwordLabel")}
          autoComplete="new-password"
          required
          hint={t("passwordHint", { min: passwordMin })}
          error={errors.fields.password}
        />
        <button className="button primary" type="submit" disabled={busy || registered} aria-busy={busy}>
          {busy ? t("working") : t("registerSubmit")}
        </button>
      </form>
    </>
  );
}
