"use client";

import { useFormatter, useTranslations } from "next-intl";
import { ShownOnce } from "./shown-once";

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
  return (
    <ShownOnce
      value={secret}
      labels={{
        title: t("secretTitle"),
        lead: t("secretLead"),
        field: t("secretLabel"),
        copy: t("copySecret"),
        copied: t("copied"),
        copyFailed: t("copyFailed"),
        done: t("secretDone"),
      }}
      onDone={onDone}
    >
      <p className="auth-hint">
        {t.rich("secretFor", { url, strong: (chunks) => <strong dir="ltr">{chunks}</strong> })}
        {previousSecretExpiresAt &&
          ` ${t("secretPrevious", { date: format.dateTime(new Date(previousSecretExpiresAt), { dateStyle: "medium", timeStyle: "short" }) })}`}
      </p>
    </ShownOnce>
  );
}
