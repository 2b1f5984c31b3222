"use client";

import { useFormatter, useTranslations } from "next-intl";
import { useId, useRef, useState } from "react";
import { fieldErrors } from "@/components/auth/call-api";
import { FormError } from "@/components/auth/form-field";
import type { CreatedInvitationOutput } from "@/lib/invitations/schema";
import { CopyIcon } from "./detail-icons";
import { noAnswer, useFailureMessage } from "./task-api";
import { api } from "@/lib/api-client/client";

/*
 * Inviting someone who has no account yet (`POST /invitations` with this task): the answer carries the link
 * once, with share links for WhatsApp, Telegram and text messages, and the plain link with a copy button that
 * says "Copied" in the status region. Name, email and phone only describe whom the user means; with a phone the
 * WhatsApp and SMS links open a chat with that number.
 */

type Field = "name" | "email" | "phone";

/** iPhones and iPads expect `sms:&body=`; everything else the RFC 5724 form (see lib/invitations/links.ts). */
const usesIosSms = () =>
  /iPhone|iPad|iPod/.test(navigator.userAgent) || (navigator.platform === "MacIntel" && navigator.maxTouchPoints > 1);

export function InvitePanel({ taskId }: { taskId: string }) {
  const t = useTranslations("TaskDetail");
  const format = useFormatter();
  const id = useId();
  const failure = useFailureMessage();
  const linkField = useRef<HTMLInputElement>(null);
  const [created, setCreated] = useState<CreatedInvitationOutput | null>(null);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [formError, setFormError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [copied, setCopied] = useState("");

  async function invite(data: FormData) {
    const optional = (name: Field) => {
      const value = String(data.get(name) ?? "").trim();
      return value ? { [name]: value } : {};
    };
    setBusy(true);
    const answer = await api
      .POST("/api/v1/invitations", {
        body: { taskId, ...optional("name"), ...optional("email"), ...optional("phone") },
      })
      .catch(noAnswer);
    setBusy(false);
    if (answer.ok) {
      setErrors({});
      setFormError(undefined);
      setCopied("");
      return setCreated(answer.body);
    }
    if (answer.status === 400) {
      const named = fieldErrors(answer.body, {
        name: t("errorInviteeName"),
        email: t("errorInviteeEmail"),
        phone: t("errorInviteePhone"),
      });
      setErrors(named);
      return setFormError(Object.keys(named).length ? undefined : t("errorInvalid"));
    }
    setFormError(failure(answer.status));
  }

  async function copy(link: string) {
    try {
      await navigator.clipboard.writeText(link);
      setCopied(t("copied"));
    } catch {
      // No clipboard (an older browser or one that refuses it): select the link for the user to copy.
      linkField.current?.select();
      setCopied(t("copyByHand"));
    }
  }

  const field = (name: Field, type: "text" | "email" | "tel", autoComplete: string) => (
    <div className="auth-field">
      <label htmlFor={`${id}-${name}`}>{t(`invitee.${name}`)}</label>
      <input
        id={`${id}-${name}`}
        name={name}
        type={type}
        autoComplete={autoComplete}
        dir={type === "text" ? "auto" : "ltr"}
        aria-invalid={errors[name] ? true : undefined}
        aria-describedby={errors[name] ? `${id}-${name}-error` : undefined}
      />
      {errors[name] && (
        <p id={`${id}-${name}-error`} className="auth-field-error" role="alert">
          {errors[name]}
        </p>
      )}
    </div>
  );

  return (
    <section className="task-card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t("inviteTitle")}</h2>
      <p className="auth-hint">{t("inviteLead")}</p>
      <form
        className="auth-form"
        noValidate
        aria-describedby={formError ? `${id}-form-error` : undefined}
        onSubmit={(event) => {
          event.preventDefault();
          if (!busy) void invite(new FormData(event.currentTarget));
        }}
      >
        <FormError id={`${id}-form-error`} message={formError} />
        {field("name", "text", "off")}
        <div className="task-field-pair">
          {field("email", "email", "off")}
          {field("phone", "tel", "off")}
        </div>
        <button type="submit" className="button" disabled={busy} aria-busy={busy}>
          {created ? t("inviteAgain") : t("createInvitation")}
        </button>
      </form>
      {created && (
        <div className="task-share" role="group" aria-labelledby={`${id}-share`}>
          <h3 id={`${id}-share`}>{t("shareTitle")}</h3>
          <ul className="task-share-links">
            <li>
              <a className="button" href={created.links.whatsapp} target="_blank" rel="noopener noreferrer">
                {t("shareWhatsapp")}
              </a>
            </li>
            <li>
              <a className="button" href={created.links.telegram} target="_blank" rel="noopener noreferrer">
                {t("shareTelegram")}
              </a>
            </li>
            <li>
              <a className="button" href={usesIosSms() ? created.links.smsIos : created.links.sms}>
                {t("shareSms")}
              </a>
            </li>
          </ul>
          <div className="auth-field">
            <label htmlFor={`${id}-link`}>{t("inviteLinkLabel")}</label>
            <div className="task-input-row">
              <input
                ref={linkField}
                id={`${id}-link`}
                readOnly
                value={created.links.copy}
                dir="ltr"
                onFocus={(event) => event.currentTarget.select()}
              />
              <button type="button" className="button" onClick={() => void copy(created.links.copy)}>
                <CopyIcon /> {t("copyLink")}
              </button>
            </div>
            <p className="auth-hint">
              {t("inviteExpires", {
                date: format.dateTime(new Date(created.invitation.expiresAt), { dateStyle: "long", timeStyle: "short" }),
              })}
            </p>
          </div>
          <p className="auth-status" role="status">
            {copied}
          </p>
        </div>
      )}
    </section>
  );
}
