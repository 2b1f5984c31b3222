"use client";

import { useTranslations } from "next-intl";
import { useRef, useState } from "react";
import { api } from "@/lib/api-client/client";
import { FormError } from "@/components/auth/form-field";
import { failureMessage } from "./profile-forms";
import { SettingsTextField } from "./settings-field";

/*
 * "Delete my account" on /{locale}/settings/account: the password, then a second, explicit confirmation, then
 * `DELETE /delete-account {password}`. 204 ends the session (the cookie is cleared) and leads to the home page; a
 * wrong password (403) deletes nothing and is announced next to the field. An account without a password may
 * leave it empty when it signed in within the last `freshMinutes` minutes.
 */
export function DeleteAccountForm({ locale, freshMinutes }: { locale: string; freshMinutes: number }) {
  const t = useTranslations("Settings");
  const [step, setStep] = useState<"ask" | "confirm" | "busy" | "deleted">("ask");
  const [errors, setErrors] = useState<{ form?: string; password?: string }>({});
  const form = useRef<HTMLFormElement>(null);
  const confirmButton = useRef<HTMLButtonElement>(null);

  async function remove() {
    if (!form.current) return;
    const password = String(new FormData(form.current).get("password") ?? "");
    setStep("busy");
    setErrors({});
    try {
      const answer = await api.DELETE("/api/v1/delete-account", { body: password ? { password } : {} });
      if (answer.ok) {
        setStep("deleted");
        return window.location.assign(`/${locale}`);
      }
      setStep("ask");
      if (answer.status === 403)
        return setErrors({ form: t("errorSummary"), password: t("errorDeletePassword", { minutes: freshMinutes }) });
      setErrors({ form: failureMessage(t, answer.status) });
    } catch {
      setStep("ask");
      setErrors({ form: t("errorGeneric") });
    }
  }

  return (
    <section className="auth-card settings-danger" aria-labelledby="delete-title">
      <h2 id="delete-title">{t("deleteTitle")}</h2>
      <p className="settings-warning" id="delete-warning">
        {t("deleteWarning")}
      </p>
      <FormError id="delete-error" message={errors.form} />
      <p className="auth-status" role="status">
        {step === "deleted" ? t("deleted") : ""}
      </p>
      <form
        ref={form}
        className="auth-form"
        noValidate
        aria-describedby={errors.form ? "delete-warning delete-error" : "delete-warning"}
        onSubmit={(event) => {
          event.preventDefault();
          if (step !== "ask") return;
          setErrors({});
          setStep("confirm");
          requestAnimationFrame(() => confirmButton.current?.focus());
        }}
      >
        <SettingsTextField
          name="password"
          type="password"
          label={t("deletePasswordLabel")}
          autoComplete="current-password"
          hint={t("deletePasswordHint", { minutes: freshMinutes })}
          error={errors.password}
        />
        {step === "ask" ? (
          <button className="button danger" type="submit">
            {t("deleteSubmit")}
          </button>
        ) : (
          <div className="settings-confirm" role="group" aria-labelledby="delete-question">
            <p id="delete-question" className="settings-warning">
              {t("deleteQuestion")}
            </p>
            <div className="settings-actions">
              <button
                ref={confirmButton}
                className="button danger"
                type="button"
                disabled={step !== "confirm"}
                aria-busy={step === "busy"}
                onClick={() => void remove()}
              >
                {step === "confirm" ? t("deleteConfirm") : t("deleting")}
              </button>
              <button className="button" type="button" disabled={step !== "confirm"} onClick={() => setStep("ask")}>
                {t("deleteCancel")}
              </button>
            </div>
          </div>
        )}
      </form>
    </section>
  );
}
