"use client";

import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { api } from "@/lib/api-client/client";
import { FormMessage } from "@/components/goals/goal-fields";
import { canChangeMember, CIRCLES, grantableRoles, type CircleKind, type CircleRole } from "./circle-kind";
import { failureMessage } from "./failure";

export interface CircleMember {
  userId: string;
  name: string;
  email: string;
  role: CircleRole;
}

interface Props {
  kind: CircleKind;
  locale: string;
  id: string;
  userId: string;
  myRole: CircleRole;
  members: readonly CircleMember[];
}

/**
 * The members of a team or project with their roles. Owners and admins change a role (only an owner grants or
 * takes `owner`) and remove members; everyone may leave. The API keeps one owner: demoting or removing the last
 * one, or the last owner leaving, is refused, and the message says to hand ownership over first.
 */
export function MemberList({ kind, locale, id, userId, myRole, members }: Props) {
  const t = useTranslations("Teams");
  const router = useRouter();
  const config = CIRCLES[kind];
  const [busy, setBusy] = useState<string>();
  const [error, setError] = useState<string>();
  const [status, setStatus] = useState<string>();
  const roles = grantableRoles(config, myRole);

  async function act(memberId: string, run: () => Promise<{ status: number }>, done: (status: number) => string | undefined) {
    setBusy(memberId);
    setError(undefined);
    setStatus(undefined);
    const answer = await run().catch(() => null);
    setBusy(undefined);
    if (!answer) return setError(t("errorGeneric"));
    const message = done(answer.status);
    if (message === undefined) return setError(failureMessage(t, answer.status));
    setStatus(message);
  }

  const changeRole = (member: CircleMember, role: CircleRole) =>
    act(
      member.userId,
      () =>
        api.PATCH(`${config.api}/{id}/members/{userId}` as const, {
          params: { path: { id, userId: member.userId } },
          body: { role },
        }),
      (answer) => {
        if (answer !== 200) return undefined;
        router.refresh();
        return t("roleChanged", { name: member.name, role: t(`role.${role}`) });
      },
    );

  const remove = (member: CircleMember) =>
    act(
      member.userId,
      () => api.DELETE(`${config.api}/{id}/members/{userId}` as const, { params: { path: { id, userId: member.userId } } }),
      (answer) => {
        if (answer !== 204) return undefined;
        router.refresh();
        return t("removed", { name: member.name });
      },
    );

  const leave = () =>
    act(
      userId,
      () => api.POST(`${config.api}/{id}/leave` as const, { params: { path: { id } } }),
      (answer) => {
        if (answer !== 204) return undefined;
        router.push(`/${locale}/${config.path}`);
        return t(`${kind}.left`);
      },
    );

  return (
    <div className="circle-members">
      <FormMessage kind="error" message={error} />
      <ul className="member-list">
        {members.map((member) => {
          const self = member.userId === userId;
          const editable = canChangeMember(myRole, member.role) && roles.includes(member.role);
          return (
            <li key={member.userId} className="member-row" aria-busy={busy === member.userId || undefined}>
              <div className="member-who">
                <span className="member-name" dir="auto">
                  {member.name}
                  {self && <span className="member-you"> {t("you")}</span>}
                </span>
                <span className="member-email" dir="ltr">
                  {member.email}
                </span>
              </div>
              <div className="member-actions">
                {editable ? (
                  <label className="member-role">
                    <span className="visually-hidden">{t("roleOf", { name: member.name })}</span>
                    <select
                      value={member.role}
                      disabled={busy !== undefined}
                      onChange={(event) => void changeRole(member, event.currentTarget.value as CircleRole)}
                    >
                      {roles.map((role) => (
                        <option key={role} value={role}>
                          {t(`role.${role}`)}
                        </option>
                      ))}
                    </select>
                  </label>
                ) : (
                  <span className={`circle-role circle-role-${member.role}`}>{t(`role.${member.role}`)}</span>
                )}
                {self ? (
                  <button type="button" className="button" disabled={busy !== undefined} onClick={() => void leave()}>
                    {t(`${kind}.leave`)}
                  </button>
                ) : (
                  canChangeMember(myRole, member.role) && (
                    <button
                      type="button"
                      className="button danger"
                      disabled={busy !== undefined}
                      aria-label={t("removeLabel", { name: member.name })}
                      onClick={() => void remove(member)}
                    >
                      {t("remove")}
                    </button>
                  )
                )}
              </div>
            </li>
          );
        })}
      </ul>
      <FormMessage kind="status" message={status} />
    </div>
  );
}
