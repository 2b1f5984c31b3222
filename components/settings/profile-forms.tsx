"use client";

import { useTranslations } from "next-intl";
import { fieldErrors } from "@/components/auth/call-api";
import { api } from "@/lib/api-client/client";
import type { Locale } from "@/lib/i18n/locales";
import { FormError } from "@/components/auth/form-field";
import { useFormSave } from "@/components/auth/use-form-save";
import { SettingsSelectField, SettingsTextField } from "./settings-field";

/*
 * The forms of /{locale}/settings/profile: name, language and time zone (`PATCH /auth/profile`), and the password
 * (`POST /auth/change-password`, which answers with a new session token and sets it as the cookie). A new language
 * takes the visitor to the same page under the new locale's URL. Fields the API's problem names
 * (`errors[].pointer`) get a localized message next to them; the API's own words are never shown.
 */

type ProfileField = "name" | "locale" | "timeZone";
type PasswordField = "currentPassword" | "newPassword";

export interface ProfileValues {
  name: string;
  locale: string;
  timeZone: string;
}

interface ProfileProps {
  /** Spolu's locale code of the page (`ua`, not `uk`). */
  locale: string;
  user: ProfileValues;
  /** The languages as `{ value: code, label: its own name }`. */
  languages: readonly { value: string; label: string; lang: string }[];
  timeZones: readonly string[];
}

export function ProfileForm({ locale, user, languages, timeZones }: ProfileProps) {
  const t = useTranslations("Settings");
  const { busy, saved, setSaved, errors, setErrors, submitWith } = useFormSave<ProfileField>(t("errorGeneric"));

  async function save(data: FormData) {
    const json = {
      name: String(data.get("name") ?? ""),
      // One of the options the select offers, all of them Spolu's locales (the server refuses any other).
      locale: String(data.get("locale") ?? "") as Locale,
      timeZone: String(data.get("timeZone") ?? ""),
    };
    if (!json.name.trim()) return setErrors({ form: t("errorSummary"), fields: { name: t("errorName") } });
    const answer = await api.PATCH("/api/v1/auth/profile", { body: json });
    if (answer.ok) {
      if (json.locale !== locale) return window.location.assign(`/${json.locale}/settings/profile`);
      return setSaved(true);
    }
    if (answer.status === 400) {
      const messages: Record<ProfileField, string> = {
        name: t("errorName"),
        locale: t("errorLanguage"),
        timeZone: t("errorTimeZone"),
      };
      const fields = fieldErrors(answer.body, messages);
      return setErrors({ form: Object.keys(fields).length ? t("errorSummary") : t("errorGeneric"), fields });
    }
    setErrors({ form: failureMessage(t, answer.status), fields: {} });
  }

  return (
    <section className="auth-card" aria-labelledby="profile-title">
      <h2 id="profile-title">{t("profileSectionTitle")}</h2>
      <FormError id="profile-error" message={errors.form} />
      <p className="auth-status" role="status">
        {saved ? t("profileSaved") : ""}
      </p>
      <form
        className="auth-form"
        noValidate
        aria-describedby={errors.form ? "profile-error" : undefined}
        onSubmit={submitWith(save)}
      >
        <SettingsTextField
          name="name"
          label={t("nameLabel")}
          autoComplete="name"
          defaultValue={user.name}
          required
          maxLength={100}
          error={errors.fields.name}
        />
        <SettingsSelectField
          name="locale"
          label={t("languageLabel")}
          hint={t("languageHint")}
          defaultValue={user.locale}
          options={languages}
          error={errors.fields.locale}
        />
        <SettingsSelectField
          name="timeZone"
          label={t("timeZoneLabel")}
          hint={t("timeZoneHint")}
          defaultValue={user.timeZone}
          options={timeZones.map((zone) => ({ value: zone, label: zone.replaceAll("_", " ") }))}
          error={errors.fields.timeZone}
        />
        <button className="button primary" type="submit" disabled={busy} aria-busy={busy}>
          {busy ? t("working") : t("saveProfile")}
        </button>
      </form>
    </section>
  );
}

export function PasswordForm({ passwordMin }: { passwordMin: number }) {
  const t = useTranslations("Settings");
  const {
    busy,
    saved: changed,
    setSaved: setChanged,
    errors,
    setErrors,
    submitWith,
  } = useFormSave<PasswordField>(t("errorGeneric"));

  async function change(data: FormData, form: HTMLFormElement) {
    const json = {
      currentPassword: String(data.get("currentPassword") ?? ""),
      newPassword: String(data.get("newPassword") ?? ""),
    };
    if (!json.currentPassword || !json.newPassword) {
      return setErrors({
        form: t("errorSummary"),
        fields: {
          currentPassword: json.currentPassword ? undefined : t("errorCurrentPasswordRequired"),
          newPassword: json.newPassword ? undefined : t("errorNewPassword", { min: passwordMin }),
        },
      });
    }
    const answer = await api.POST("/api/v1/auth/change-password", { body: json });
    if (answer.ok) {
      form.reset();
      return setChanged(true);
    }
    if (answer.status === 400) {
      const messages: Record<PasswordField, string> = {
        currentPassword: t("errorCurrentPassword"),
        newPassword: t("errorNewPassword", { min: passwordMin }),
      };
      const fields = fieldErrors(answer.body, messages);
      return setErrors({ form: Object.keys(fields).length ? t("errorSummary") : t("errorGeneric"), fields });
    }
    setErrors({ form: failureMessage(t, answer.status), fields: {} });
  }

  return (
    <section className="auth-card" aria-labelledby="password-title">
      <h2 id="password-title">{t("passwordTitle")}</h2>
      <p className="auth-lead">{t("passwordLead")}</p>
      <FormError id="password-error" message={errors.form} />
      <p className="auth-status" role="status">
        {changed ? t("passwordChanged") : ""}
      </p>
      <form
        className="auth-form"
        noValidate
        aria-describedby={errors.form ? "password-error" : undefined}
        onSubmit={submitWith(change)}
      >
        <SettingsTextField
          name="currentPassword"
          type="password"
          label={t("currentPasswordLabel")}
          autoComplete="current-password"
          required
          error={errors.fields.currentPassword}
        />
        <SettingsTextField
          name="newPassword"
          type="password"
          label={t("newPasswordLabel")}
          autoComplete="new-password"
          required
          hint={t("newPasswordHint", { min: passwordMin })}
          error={errors.fields.newPassword}
        />
        <button className="button primary" type="submit" disabled={busy} aria-busy={busy}>
          {busy ? t("working") : t("passwordSubmit")}
        </button>
      </form>
    </section>
  );
}

/** The message for an answer that is neither a success nor a validation problem. */
export function failureMessage(t: ReturnType<typeof useTranslations<"Settings">>, status: number): string {
  if (status === 401) return t("errorSignedOut");
  if (status === 429) return t("errorRateLimited");
  return t("errorGeneric");
}
