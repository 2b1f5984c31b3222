"use client";

import { useFormatter, useTranslations } from "next-intl";
import { useEffect, useId, useRef, useState } from "react";

/*
 * A webhook's signing secret, the one time the API shows it (on creation and after a rotation): a read-only field
 * to select it from, a copy button, and a button to put it away. Focus moves here when it appears, so that keyboard
 * and screen reader users land on it.
 */
export function WebhookSecret({
  secret,
  url,
  previousSecretExpiresAt,
  onDone,
}: {
  secret: string;
  /** The endpoint it signs for. */
  url: string;
  /** After a rotation: until when the previous secret still signs. */
  previousSecretExpiresAt?: string;
  onDone: () => void;
}) {
  const t = useTranslations("WebhookSettings");
  const format = useFormatter();
  const id = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const [copy, setCopy] = useState<"idle" | "copied" | "failed">("idle");

  useEffect(() => heading.current?.focus(), []);

  async function copySecret() {
    try {
      await navigator.clipboard.writeText(secret);
      setCopy("copied");
    } catch {
      setCopy("failed");
    }
  }

  return (
    <section className="webhook-secret" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} ref={heading} tabIndex={-1}>
        {t("secretTitle")}
      </h3>
      <p className="settings-warning">{t("secretLead")}</p>
      <p className="auth-hint">
        {t.rich("secretFor", { url, strong: (chunks) => <strong dir="ltr">{chunks}</strong> })}
        {previousSecretExpiresAt &&
          ` ${t("secretPrevious", { date: format.dateTime(new Date(previousSecretExpiresAt), { dateStyle: "medium", timeStyle: "short" }) })}`}
      </p>
      <div className="auth-field">
        <label htmlFor={`${id}-value`}>{t("secretLabel")}</label>
        <input
          id={`${id}-value`}
          className="webhook-secret-value"
          type="text"
          readOnly
          value={secret}
          dir="ltr"
          spellCheck={false}
          onFocus={(event) => event.currentTarget.select()}
        />
      </div>
      <p className={copy === "failed" ? "auth-form-error" : "auth-status"} role="status">
        {copy === "copied" ? t("copied") : copy === "failed" ? t("copyFailed") : ""}
      </p>
      <div className="settings-actions">
        <button className="button primary" type="button" onClick={() => void copySecret()}>
          {t("copySecret")}
        </button>
        <button className="button" type="button" onClick={onDone}>
          {t("secretDone")}
        </button>
      </div>
    </section>
  );
}
