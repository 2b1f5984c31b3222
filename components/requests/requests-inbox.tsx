"use client";

import { useTranslations } from "next-intl";
import { useCallback, useState } from "react";
import { api } from "@/lib/api-client/client";
import { FormError } from "@/components/auth/form-field";
import { useLiveEvents } from "@/components/realtime/use-live-events";
import type { CollaborationRequestOutput } from "@/lib/collaboration/schema";
import type { JoinedOutput, ReceivedInvitationOutput } from "@/lib/invitations/schema";
import { InvitationItem, invitationTargetName } from "./invitation-item";
import { RequestItem } from "./request-item";
import { boxOf, pendingFirst, REQUEST_LIST_LIMIT, type Box } from "./request-lists";

/*
 * The requests inbox: invitations addressed to the user (to a task, a project, a family workspace or a team:
 * accept or decline), requests for the user to decide (accept or decline) and the ones they sent (withdraw while
 * pending), each with its task and who asked, pending first and then the history. A request or invitation sent to
 * the user, or an answer to one of theirs, arrives on the socket and the lists are read again.
 */

interface RequestsInboxProps {
  meId: string;
  timeZone: string;
  now: string;
  locale: string;
  incoming: CollaborationRequestOutput[];
  outgoing: CollaborationRequestOutput[];
  invitations: ReceivedInvitationOutput[];
}

export function RequestsInbox(props: RequestsInboxProps) {
  const t = useTranslations("Requests");
  const [lists, setLists] = useState<Record<Box, CollaborationRequestOutput[]>>({
    incoming: props.incoming,
    outgoing: props.outgoing,
  });
  const [invitations, setInvitations] = useState(props.invitations);
  const [error, setError] = useState<string>();
  const [announcement, setAnnouncement] = useState("");

  const reloadInvitations = useCallback(async () => {
    const answer = await api.GET("/api/v1/invitations/received").catch(() => null);
    if (answer?.ok) setInvitations(answer.body.items);
  }, []);

  function answered(invitation: ReceivedInvitationOutput, outcome: { joined: JoinedOutput } | "declined" | null) {
    setInvitations((current) => current.filter((item) => item.id !== invitation.id));
    if (outcome === null) return void reloadInvitations();
    const name = invitationTargetName(invitation);
    setAnnouncement(outcome === "declined" ? t("invitationDeclined", { name }) : t("invitationAccepted", { name }));
  }

  const reload = useCallback(async () => {
    const answers = await Promise.all(
      (["incoming", "outgoing"] as const).map((box) =>
        api.GET("/api/v1/collaboration-requests", { params: { query: { box, limit: REQUEST_LIST_LIMIT } } }).catch(() => null),
      ),
    );
    const [incoming, outgoing] = answers.map((answer) => (answer?.ok ? answer.body.items : undefined));
    if (!incoming || !outgoing)
      return setError(answers.some((answer) => answer?.status === 401) ? t("errorSignedOut") : t("errorReload"));
    setError(undefined);
    setLists({ incoming, outgoing });
  }, [t]);

  const live = useLiveEvents({
    onEvent(event) {
      if (event.type.startsWith("collaboration.")) void reload();
      if (event.type.startsWith("invitation.")) void reloadInvitations();
    },
    onResync() {
      void reload();
      void reloadInvitations();
    },
  });

  function changed(request: CollaborationRequestOutput | null) {
    if (!request) return void reload();
    const box = boxOf(request, props.meId);
    setLists((current) => ({ ...current, [box]: current[box].map((item) => (item.id === request.id ? request : item)) }));
    setAnnouncement(t(`answered.${request.state}`, { title: request.task.title }));
  }

  // A claim's claimer is its recipient too: it belongs with what the user did, not with what they must decide.
  const sections = [
    {
      box: "incoming" as const,
      items: pendingFirst(lists.incoming.filter((request) => boxOf(request, props.meId) === "incoming")),
    },
    { box: "outgoing" as const, items: pendingFirst(lists.outgoing) },
  ];
  const item = (request: CollaborationRequestOutput) => (
    <RequestItem
      key={request.id}
      request={request}
      meId={props.meId}
      taskHref={`/${props.locale}/tasks/${request.taskId}`}
      now={props.now}
      timeZone={props.timeZone}
      onChanged={changed}
    />
  );

  return (
    <div className="requests-page">
      <header className="requests-header">
        <h1>{t("title")}</h1>
        <p className="auth-lead">{t("lead")}</p>
        <p className={`task-live task-live-${live}`}>{t(`live.${live}`)}</p>
      </header>
      <FormError id="requests-error" message={error} />
      <p className="auth-status" role="status">
        {announcement}
      </p>
      <section className="task-card" aria-labelledby="requests-invitations">
        <h2 id="requests-invitations">{t("invitationsTitle")}</h2>
        {invitations.length === 0 ? (
          <p className="auth-hint">{t("invitationsEmpty")}</p>
        ) : (
          <ul className="requests">
            {invitations.map((invitation) => (
              <InvitationItem key={invitation.id} invitation={invitation} onAnswered={answered} />
            ))}
          </ul>
        )}
      </section>
      {sections.map(({ box, items }) => {
        const pending = items.filter((request) => request.state === "pending");
        const history = items.filter((request) => request.state !== "pending");
        return (
          <section key={box} className="task-card" aria-labelledby={`requests-${box}`}>
            <h2 id={`requests-${box}`}>{t(`${box}Title`)}</h2>
            {pending.length === 0 ? (
              <p className="auth-hint">{t(`${box}Empty`)}</p>
            ) : (
              <ul className="requests">{pending.map(item)}</ul>
            )}
            {history.length > 0 && (
              <>
                <h3 id={`requests-${box}-history`}>{t("historyTitle")}</h3>
                <ul className="requests" aria-labelledby={`requests-${box}-history`}>
                  {history.map(item)}
                </ul>
              </>
            )}
          </section>
        );
      })}
    </div>
  );
}
