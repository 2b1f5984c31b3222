"use client";

import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { fieldErrors } from "@/components/auth/call-api";
import { api } from "@/lib/api-client/client";
import { Field, FormMessage } from "@/components/goals/goal-fields";
import { CIRCLES, type CircleKind, type CircleRole } from "./circle-kind";
import { failureMessage } from "./failure";

/*
 * Inviting people to a team or project (owners and admins). By e-mail (`POST .../members`): someone who already
 * works with the user is added at once; anyone else receives an invitation that shows in their app (Requests)
 * and joins only by accepting it. By link (`POST /invitations`): the answer carries the link once, to copy and
 * send; whoever opens it joins by accepting, with an account or a new one. An invitation never grants `owner`.
 */
export function InviteForm({ kind, id }: { kind: CircleKind; id: string }) {
  const t = useTranslations("Teams");
  const router = useRouter();
  const config = CIRCLES[kind];
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [emailError, setEmailError] = useState<string>();
  const [status, setStatus] = useState<string>();
  const [link, setLink] = useState<string>();
  const [copied, setCopied] = useState("");

  async function run(work: () => Promise<void>) {
    if (busy) return;
    setBusy(true);
    setError(undefined);
    setEmailError(undefined);
    setStatus(undefined);
    setCopied("");
    await work().catch(() => setError(t("errorGeneric")));
    setBusy(false);
  }

  async function inviteByEmail(data: FormData) {
    const email = String(data.get("email") ?? "").trim();
    const role = String(data.get("role") ?? "member") as CircleRole;
    if (!email) return setEmailError(t("errorEmail"));
    const answer = await api.POST(`${config.api}/{id}/members` as const, { params: { path: { id } }, body: { email, role } });
    if (answer.status === 201) {
      setStatus(t("added", { email }));
      return router.refresh();
    }
    if (answer.status === 202) return setStatus(t("invited", { email }));
    if (answer.status === 400 && fieldErrors(answer.body, { email: "" }).email !== undefined)
      return setEmailError(t("errorEmail"));
    if (answer.status === 409) return setEmailError(t("errorAlreadyMember"));
    setError(failureMessage(t, answer.status));
  }

  async function inviteByLink(role: CircleRole) {
    const answer = await api.POST("/api/v1/invitations", {
      // `role` is one of the kind's inviteRoles (circle-kind.ts): never the owner, and no viewer in a team.
      body:
        kind === "team"
          ? { teamId: id, teamRole: role as "admin" | "member" }
          : { projectId: id, projectRole: role as "admin" | "member" | "viewer" },
    });
    if (answer.ok) return setLink(answer.body.url);
    setError(failureMessage(t, answer.status));
  }

  return (
    <div className="circle-invite">
      <FormMessage kind="error" message={error} />
      <form
        className="goal-form"
        noValidate
        aria-label={t("inviteByEmail")}
        onSubmit={(event) => {
          event.preventDefault();
          const data = new FormData(event.currentTarget);
          void run(() => inviteByEmail(data));
        }}
      >
        <div className="goal-form-row">
          <Field label={t("emailLabel")} hint={t("emailHint")} error={emailError}>
            {(control) => <input {...control} name="email" type="email" autoComplete="off" required dir="ltr" />}
          </Field>
          <Field label={t("roleLabel")}>
            {(control) => (
              <select {...control} name="role" defaultValue="member">
                {config.inviteRoles.map((role) => (
                  <option key={role} value={role}>
                    {t(`role.${role}`)}
                  </option>
                ))}
              </select>
            )}
          </Field>
        </div>
        <div className="goal-actions">
          <button className="button primary" type="submit" disabled={busy} aria-busy={busy}>
            {t("invite")}
          </button>
          <button
            type="button"
            className="button"
            disabled={busy}
            onClick={(event) => {
              const role = new FormData(event.currentTarget.form ?? undefined).get("role");
              void run(() => inviteByLink(String(role ?? "member") as CircleRole));
            }}
          >
            {t("createLink")}
          </button>
        </div>
      </form>
      {link && (
        <div className="circle-link">
          <label htmlFor={`${kind}-invite-link`}>{t("linkLabel")}</label>
          <div className="circle-link-row">
            <input
              id={`${kind}-invite-link`}
              type="text"
              readOnly
              value={link}
              dir="ltr"
              onFocus={(event) => event.currentTarget.select()}
            />
            <button
              type="button"
              className="button"
              onClick={() =>
                void navigator.clipboard
                  .writeText(link)
                  .then(() => setCopied(t("copied")))
                  .catch(() => setCopied(t("copyFailed")))
              }
            >
              {t("copy")}
            </button>
          </div>
          <p className="goal-hint">{t("linkHint")}</p>
        </div>
      )}
      <FormMessage kind="status" message={status ?? copied} />
    </div>
  );
}
