"use client";

import { useTranslations } from "next-intl";
import { useEffect, useId, useRef, useState } from "react";
import { api, type Schemas } from "@/lib/api-client/client";
import type { Locale } from "@/lib/i18n/locales";

/*
 * The two ways to accept an invitation on its landing page: register (name, email, password) or sign in with an
 * existing account. Both end in `POST /api/v1/invite/{token}/accept` (the API sets the session cookie); errors are
 * shown next to their fields and announced, and success replaces the forms with a link into the app.
 */

type Field = "name" | "email" | "password";
type Errors = { form?: string; fields: Partial<Record<Field, string>> };
const NO_ERRORS: Errors = { fields: {} };

type Problem = Schemas["Problem"];

interface Props {
  token: string;
  locale: Locale;
  kind: "task" | "project" | "family" | "team";
  title: string;
  inviteeName: string;
  passwordMin: number;
}

/** `POST /invite/{token}/accept`: with registration data, or with no body as the user `bearer` signs in as. */
function accept(token: string, options: { json?: Schemas["RegisterInput"]; bearer?: string }) {
  return api.POST("/api/v1/invite/{token}/accept", {
    params: { path: { token } },
    body: options.json,
    headers: options.bearer ? { Authorization: `Bearer ${options.bearer}` } : {},
  });
}

export function AcceptForms({ token, locale, kind, title, inviteeName, passwordMin }: Props) {
  const t = useTranslations("Invite");
  const [accepted, setAccepted] = useState(false);
  const [busy, setBusy] = useState<"register" | "signIn" | null>(null);
  const [registerErrors, setRegisterErrors] = useState<Errors>(NO_ERRORS);
  const [signInErrors, setSignInErrors] = useState<Errors>(NO_ERRORS);
  const successHeading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    if (accepted) successHeading.current?.focus();
  }, [accepted]);

  /** A localized message for an API problem the forms cannot fix field by field. */
  function problemMessage(status: number, conflict: string): string {
    if (status === 409) return conflict;
    if (status === 404 || status === 410) return t("errorGone");
    if (status === 429) return t("errorRateLimited");
    return t("errorGeneric");
  }

  function fieldErrors(problem: Problem | null): Errors {
    const messages: Record<Field, string> = {
      name: t("errorName"),
      email: t("errorEmail"),
      password: t("errorPassword", { min: passwordMin }),
    };
    const fields: Errors["fields"] = {};
    for (const { pointer } of problem?.errors ?? []) {
      const field = pointer.slice(1) as Field;
      if (field in messages) fields[field] = messages[field];
    }
    return Object.keys(fields).length ? { form: t("errorSummary"), fields } : { form: t("errorGeneric"), fields };
  }

  async function register(form: HTMLFormElement) {
    const data = new FormData(form);
    const json: Schemas["RegisterInput"] = {
      name: String(data.get("name") ?? ""),
      email: String(data.get("email") ?? ""),
      password: String(data.get("password") ?? ""),
      locale,
    };
    // The new account takes the browser's time zone, as on the sign-up page (without it, the account is in UTC).
    const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    if (timeZone) json.timeZone = timeZone;
    let result = await accept(token, { json });
    // A time zone the server does not know is no reason to refuse the account: it then keeps its default.
    const invalid = !result.ok && result.status === 400 ? (result.body?.errors ?? []) : [];
    if (json.timeZone && invalid.length > 0 && invalid.every(({ pointer }) => pointer === "/timeZone")) {
      delete json.timeZone;
      result = await accept(token, { json });
    }
    if (result.ok) return setAccepted(true);
    if (result.status === 400) return setRegisterErrors(fieldErrors(result.body));
    // 401: the email has an account and this is not its password (the answer never says whether it has one).
    if (result.status === 401) return setRegisterErrors({ form: t("errorRegisterRefused"), fields: {} });
    setRegisterErrors({ form: problemMessage(result.status, t("errorConflict")), fields: {} });
  }

  async function signIn(form: HTMLFormElement) {
    const data = new FormData(form);
    const login = await api.POST("/api/v1/auth/login", {
      body: { email: String(data.get("email") ?? ""), password: String(data.get("password") ?? "") },
    });
    if (login.status === 400 || login.status === 401) return setSignInErrors({ form: t("errorWrongCredentials"), fields: {} });
    if (!login.ok) return setSignInErrors({ form: problemMessage(login.status, t("errorGeneric")), fields: {} });
    const result = await accept(token, { bearer: login.body.token });
    if (result.ok) return setAccepted(true);
    setSignInErrors({ form: problemMessage(result.status, t("errorConflict")), fields: {} });
  }

  function submit(which: "register" | "signIn") {
    return async (event: React.FormEvent<HTMLFormElement>) => {
      event.preventDefault();
      if (busy) return;
      const form = event.currentTarget;
      setBusy(which);
      (which === "register" ? setRegisterErrors : setSignInErrors)(NO_ERRORS);
      try {
        await (which === "register" ? register(form) : signIn(form));
      } catch {
        (which === "register" ? setRegisterErrors : setSignInErrors)({ form: t("errorGeneric"), fields: {} });
      } finally {
        setBusy(null);
      }
    };
  }

  if (accepted) {
    return (
      <section className="invite-card invite-success" role="status" aria-labelledby="invite-success-title">
        <h2 id="invite-success-title" ref={successHeading} tabIndex={-1}>
          {t("successTitle")}
        </h2>
        <p>
          {{
            task: () => t("successTask", { title }),
            project: () => t("successProject", { name: title }),
            family: () => t("successFamily", { name: title }),
            team: () => t("successTeam", { name: title }),
          }[kind]()}
        </p>
        <a className="button primary" href={`/${locale}`}>
          {t("openApp")}
        </a>
      </section>
    );
  }

  return (
    <div className="invite-forms">
      <section className="invite-card" aria-labelledby="invite-register-title">
        <h2 id="invite-register-title">{t("registerTitle")}</h2>
        <p className="invite-lead">{t("registerLead")}</p>
        <FormError id="invite-register-error" message={registerErrors.form} />
        <form
          onSubmit={submit("register")}
          noValidate
          aria-describedby={registerErrors.form ? "invite-register-error" : undefined}
        >
          <TextField
            name="name"
            label={t("nameLabel")}
            autoComplete="name"
            defaultValue={inviteeName}
            error={registerErrors.fields.name}
          />
          <TextField name="email" type="email" label={t("emailLabel")} autoComplete="email" error={registerErrors.fields.email} />
          <TextField
            name="password"
            type="password"
            label={t("passwordLabel")}
            autoComplete="new-password"
            hint={t("passwordHint", { min: passwordMin })}
            error={registerErrors.fields.password}
          />
          <button className="button primary" type="submit" disabled={busy !== null} aria-busy={busy === "register"}>
            {busy === "register" ? t("working") : t("registerSubmit")}
          </button>
        </form>
      </section>

      <section className="invite-card" aria-labelledby="invite-sign-in-title">
        <h2 id="invite-sign-in-title">{t("signInTitle")}</h2>
        <p className="invite-lead">{t("signInLead")}</p>
        <FormError id="invite-sign-in-error" message={signInErrors.form} />
        <form onSubmit={submit("signIn")} noValidate aria-describedby={signInErrors.form ? "invite-sign-in-error" : undefined}>
          <TextField name="email" type="email" label={t("emailLabel")} autoComplete="username" />
          <TextField name="password" type="password" label={t("passwordLabel")} autoComplete="current-password" />
          <button className="button" type="submit" disabled={busy !== null} aria-busy={busy === "signIn"}>
            {busy === "signIn" ? t("working") : t("signInSubmit")}
          </button>
        </form>
      </section>
    </div>
  );
}

/** The form's error, announced when it appears (the region exists from the start, so that it is read). */
function FormError({ id, message }: { id: string; message?: string }) {
  return (
    <p id={id} className="invite-form-error" role="alert">
      {message}
    </p>
  );
}

function TextField(props: {
  name: Field;
  label: string;
  type?: "text" | "email" | "password";
  autoComplete: string;
  defaultValue?: string;
  hint?: string;
  error?: string;
}) {
  const id = useId();
  const described = [props.hint && `${id}-hint`, props.error && `${id}-error`].filter(Boolean).join(" ");
  return (
    <div className="invite-field">
      <label htmlFor={id}>{props.label}</label>
      <input
        id={id}
        name={props.name}
        type={props.type ?? "text"}
        autoComplete={props.autoComplete}
        defaultValue={props.defaultValue}
        required
        aria-invalid={props.error ? true : undefined}
        aria-describedby={described || undefined}
        dir="auto"
      />
      {props.hint && (
        <p id={`${id}-hint`} className="invite-hint">
          {props.hint}
        </p>
      )}
      {props.error && (
        <p id={`${id}-error`} className="invite-field-error">
          {props.error}
        </p>
      )}
    </div>
  );
}
