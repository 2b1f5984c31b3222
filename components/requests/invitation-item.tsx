"use client";

import { useTranslations } from "next-intl";
import { useState } from "react";
import { api } from "@/lib/api-client/client";
import type { JoinedOutput, ReceivedInvitationOutput } from "@/lib/invitations/schema";

/*
 * One invitation addressed to the user (their account or email), on the requests page: who invites them to what
 * and with which role; Accept joins (`POST /api/v1/invitations/{id}/accept`), Decline says no
 * (`POST /api/v1/invitations/{id}/decline`). Nobody joins a task, project, family workspace or team without this.
 */

/** The name of what the invitation is to. */
export function invitationTargetName(invitation: ReceivedInvitationOutput): string {
  return (
    { task: invitation.taskTitle, project: invitation.projectName, family: invitation.familyName, team: invitation.teamName }[
      invitation.kind
    ] ?? ""
  );
}

/** The role the invitation grants, as a message key's select value. */
function roleOf(invitation: ReceivedInvitationOutput): string {
  return invitation.taskRole ?? invitation.projectRole ?? invitation.familyRole ?? invitation.teamRole ?? "member";
}

interface InvitationItemProps {
  invitation: ReceivedInvitationOutput;
  /** After an answer: joined (with where) or declined; null when it no longer works (the list is read again). */
  onAnswered: (invitation: ReceivedInvitationOutput, outcome: { joined: JoinedOutput } | "declined" | null) => void;
}

export function InvitationItem({ invitation, onAnswered }: InvitationItemProps) {
  const t = useTranslations("Requests");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const name = invitationTargetName(invitation);
  const textId = `invitation-${invitation.id}-text`;

  async function answer(action: "accept" | "decline") {
    setBusy(true);
    setError(undefined);
    try {
      const response = await api.POST(`/api/v1/invitations/{id}/${action}` as const, { params: { path: { id: invitation.id } } });
      // Accepted: where the user joined; declined: no body.
      if (response.ok) return onAnswered(invitation, response.body ? { joined: response.body } : "declined");
      if (response.status === 404 || response.status === 410) return onAnswered(invitation, null);
      if (response.status === 409) return setError(t("invitationConflict"));
      setError(response.status === 401 ? t("errorSignedOut") : t("errorGeneric"));
    } catch {
      setError(t("errorGeneric"));
    } finally {
      setBusy(false);
    }
  }

  return (
    <li className="request" data-invitation-id={invitation.id} aria-labelledby={textId}>
      <p id={textId} className="request-text">
        {t("invitationText", { kind: invitation.kind, inviter: invitation.inviterName, name })}
      </p>
      <p className="auth-hint">{t("invitationRole", { role: roleOf(invitation) })}</p>
      {error && (
        <p className="auth-form-error" role="alert">
          {error}
        </p>
      )}
      <div className="auth-buttons">
        <button
          className="button primary"
          type="button"
          disabled={busy}
          aria-describedby={textId}
          onClick={() => void answer("accept")}
        >
          {t("accept")}
        </button>
        <button className="button" type="button" disabled={busy} aria-describedby={textId} onClick={() => void answer("decline")}>
          {t("reject")}
        </button>
      </div>
    </li>
  );
}
