"use client";

import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { fieldErrors } from "@/components/auth/call-api";
import { api } from "@/lib/api-client/client";
import { isLocale } from "@/lib/i18n/locales";
import { Field, FormMessage } from "@/components/goals/goal-fields";
import type { FamilyOutput } from "@/lib/family/schema";

/*
 * The family workspace page's interactive parts. Without a workspace: a form to create one (its creator is a
 * parent). With one: its parents and children (parents change roles and remove; anyone leaves, except the last
 * parent while others remain), inviting a parent or a child by email or by link (they join by accepting), the
 * task groups shared with the family (share one of yours; its owner or a parent stops sharing), renaming and
 * deleting (parents).
 */

type Family = FamilyOutput;
type Role = "parent" | "child";
const API = "/api/v1/family" as const;

function useFailure() {
  const t = useTranslations("Family");
  return (status: number | undefined) => {
    if (status === 401) return t("errorSignedOut");
    if (status === 403) return t("errorForbidden");
    if (status === 404) return t("errorNotFound");
    if (status === 409) return t("errorLastParent");
    if (status === 429) return t("errorRateLimited");
    return t("errorGeneric");
  };
}

export function CreateFamilyForm({ lang, nameMax }: { lang: string; nameMax: number }) {
  const t = useTranslations("Family");
  const router = useRouter();
  const failure = useFailure();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [nameError, setNameError] = useState<string>();
  return (
    <form
      className="goal-form"
      noValidate
      onSubmit={async (event) => {
        event.preventDefault();
        if (busy) return;
        const name = String(new FormData(event.currentTarget).get("name") ?? "").trim();
        setError(undefined);
        setNameError(undefined);
        if (!name) return setNameError(t("errorName", { max: nameMax }));
        setBusy(true);
        const answer = await api
          .POST(API, { params: { query: { lang: isLocale(lang) ? lang : undefined } }, body: { name } })
          .catch(() => null);
        setBusy(false);
        if (answer?.ok) return router.refresh();
        if (answer?.status === 400 && fieldErrors(answer.body, { name: "" }).name !== undefined) {
          return setNameError(t("errorName", { max: nameMax }));
        }
        setError(answer?.status === 409 ? t("errorAlreadyInFamily") : failure(answer?.status));
      }}
    >
      <FormMessage kind="error" message={error} />
      <Field label={t("nameLabel")} hint={t("nameHint")} error={nameError}>
        {(control) => <input {...control} name="name" type="text" required maxLength={nameMax} dir="auto" autoComplete="off" />}
      </Field>
      <div className="goal-actions">
        <button className="button primary" type="submit" disabled={busy} aria-busy={busy}>
          {t("create")}
        </button>
      </div>
    </form>
  );
}

/** Runs one request at a time, with an error and a status message for the section. */
function useAction() {
  const failure = useFailure();
  const t = useTranslations("Family");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [status, setStatus] = useState<string>();
  async function run<Answer extends { status: number }>(
    request: () => Promise<Answer>,
    success: (answer: Answer) => string | undefined,
  ) {
    setBusy(true);
    setError(undefined);
    setStatus(undefined);
    const answer = await request().catch(() => null);
    setBusy(false);
    if (!answer) return setError(t("errorGeneric"));
    const message = success(answer);
    if (message === undefined) setError(failure(answer.status));
    else setStatus(message);
  }
  return { busy, error, status, run };
}

export function FamilyMembers({ family, userId }: { family: Family; userId: string }) {
  const t = useTranslations("Family");
  const router = useRouter();
  const { busy, error, status, run } = useAction();
  const parent = family.role === "parent";
  const groups: { role: Role; title: string }[] = [
    { role: "parent", title: t("parents") },
    { role: "child", title: t("children") },
  ];
  return (
    <div className="circle-members">
      <FormMessage kind="error" message={error} />
      {groups.map(({ role, title }) => {
        const members = family.members.filter((member) => member.role === role);
        return (
          <div key={role} className="family-role-group">
            <h3>{title}</h3>
            {members.length === 0 ? (
              <p className="circle-empty">{t("nobody")}</p>
            ) : (
              <ul className="member-list">
                {members.map((member) => {
                  const self = member.userId === userId;
                  return (
                    <li key={member.userId} className="member-row">
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
                        {parent ? (
                          <label className="member-role">
                            <span className="visually-hidden">{t("roleOf", { name: member.name })}</span>
                            <select
                              value={member.role}
                              disabled={busy}
                              onChange={(event) => {
                                const next = event.currentTarget.value as Role;
                                void run(
                                  () =>
                                    api.PATCH(`${API}/members/{userId}`, {
                                      params: { path: { userId: member.userId } },
                                      body: { role: next },
                                    }),
                                  (answer) => {
                                    if (answer.status !== 200) return undefined;
                                    router.refresh();
                                    return t("roleChanged", { name: member.name, role: t(`role.${next}`) });
                                  },
                                );
                              }}
                            >
                              <option value="parent">{t("role.parent")}</option>
                              <option value="child">{t("role.child")}</option>
                            </select>
                          </label>
                        ) : (
                          <span className="circle-role">{t(`role.${member.role}`)}</span>
                        )}
                        {self ? (
                          <button
                            type="button"
                            className="button"
                            disabled={busy}
                            onClick={() =>
                              void run(
                                () => api.POST(`${API}/leave`),
                                (answer) => {
                                  if (answer.status !== 204) return undefined;
                                  router.refresh();
                                  return t("left");
                                },
                              )
                            }
                          >
                            {t("leave")}
                          </button>
                        ) : (
                          parent && (
                            <button
                              type="button"
                              className="button danger"
                              disabled={busy}
                              aria-label={t("removeLabel", { name: member.name })}
                              onClick={() =>
                                void run(
                                  () => api.DELETE(`${API}/members/{userId}`, { params: { path: { userId: member.userId } } }),
                                  (answer) => {
                                    if (answer.status !== 204) return undefined;
                                    router.refresh();
                                    return t("removed", { name: member.name });
                                  },
                                )
                              }
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
            )}
          </div>
        );
      })}
      <FormMessage kind="status" message={status} />
    </div>
  );
}

export function FamilyInvite({ familyId }: { familyId: string }) {
  const t = useTranslations("Family");
  const { busy, error, status, run } = useAction();
  const [emailError, setEmailError] = useState<string>();
  const [link, setLink] = useState<string>();
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
          const email = String(data.get("email") ?? "").trim();
          // One of the roles the select offers (the server refuses any other).
          const role = String(data.get("role") ?? "child") as Role;
          setEmailError(undefined);
          if (!email) return setEmailError(t("errorEmail"));
          void run(
            () => api.POST(`${API}/members`, { body: { email, role } }),
            (answer) => {
              if (answer.status === 202) return t("invited", { email });
              if (answer.status !== 409 && answer.status !== 400) return undefined;
              setEmailError(answer.status === 409 ? t("errorAlreadyMember") : t("errorEmail"));
              return "";
            },
          );
        }}
      >
        <div className="goal-form-row">
          <Field label={t("emailLabel")} hint={t("emailHint")} error={emailError}>
            {(control) => <input {...control} name="email" type="email" autoComplete="off" required dir="ltr" />}
          </Field>
          <Field label={t("roleLabel")}>
            {(control) => (
              <select {...control} name="role" defaultValue="child">
                <option value="parent">{t("role.parent")}</option>
                <option value="child">{t("role.child")}</option>
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
              const role = String(new FormData(event.currentTarget.form ?? undefined).get("role") ?? "child") as Role;
              void run(
                () => api.POST("/api/v1/invitations", { body: { familyId, familyRole: role } }),
                (answer) => {
                  if (!answer.ok) return undefined;
                  setLink(answer.body.url);
                  return "";
                },
              );
            }}
          >
            {t("createLink")}
          </button>
        </div>
      </form>
      {link && (
        <div className="circle-link">
          <label htmlFor="family-invite-link">{t("linkLabel")}</label>
          <input id="family-invite-link" type="text" readOnly value={link} dir="ltr" />
          <p className="goal-hint">{t("linkHint")}</p>
        </div>
      )}
      <FormMessage kind="status" message={status} />
    </div>
  );
}

export function SharedGroups({
  family,
  userId,
  ownGroups,
  lang,
}: {
  family: Family;
  userId: string;
  ownGroups: readonly { id: string; name: string }[];
  lang: string;
}) {
  const t = useTranslations("Family");
  const router = useRouter();
  const { busy, error, status, run } = useAction();
  const names = new Map(family.members.map((member) => [member.userId, member.name]));
  const shareable = ownGroups.filter((group) => !family.groups.some((shared) => shared.id === group.id));
  return (
    <div className="circle-members">
      <FormMessage kind="error" message={error} />
      {family.groups.length === 0 ? (
        <p className="circle-empty">{t("noGroups")}</p>
      ) : (
        <ul className="member-list">
          {family.groups.map((group) => (
            <li key={group.id} className="member-row">
              <div className="member-who">
                <a className="member-name" href={`/${lang}/tasks?group=${group.id}`} dir="auto">
                  {group.name}
                </a>
                <span className="member-email" dir="auto">
                  {t("sharedBy", { name: group.ownerId === userId ? t("you") : (names.get(group.ownerId) ?? "") })}
                </span>
              </div>
              {(group.ownerId === userId || family.role === "parent") && (
                <button
                  type="button"
                  className="button"
                  disabled={busy}
                  aria-label={t("unshareLabel", { name: group.name })}
                  onClick={() =>
                    void run(
                      () => api.DELETE(`${API}/groups/{groupId}`, { params: { path: { groupId: group.id } } }),
                      (answer) => {
                        if (answer.status !== 204) return undefined;
                        router.refresh();
                        return t("unshared", { name: group.name });
                      },
                    )
                  }
                >
                  {t("unshare")}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {shareable.length > 0 && (
        <form
          className="goal-form"
          aria-label={t("shareTitle")}
          onSubmit={(event) => {
            event.preventDefault();
            const groupId = String(new FormData(event.currentTarget).get("group") ?? "");
            const name = shareable.find((group) => group.id === groupId)?.name ?? "";
            void run(
              () =>
                api.PUT(`${API}/groups/{groupId}`, {
                  params: { path: { groupId }, query: { lang: isLocale(lang) ? lang : undefined } },
                }),
              (answer) => {
                if (answer.status !== 200) return undefined;
                router.refresh();
                return t("shared", { name });
              },
            );
          }}
        >
          <div className="goal-form-row">
            <Field label={t("shareLabel")}>
              {(control) => (
                <select {...control} name="group">
                  {shareable.map((group) => (
                    <option key={group.id} value={group.id}>
                      {group.name}
                    </option>
                  ))}
                </select>
              )}
            </Field>
          </div>
          <div className="goal-actions">
            <button className="button primary" type="submit" disabled={busy}>
              {t("share")}
            </button>
          </div>
        </form>
      )}
      <FormMessage kind="status" message={status} />
    </div>
  );
}

export function FamilySettings({ family, nameMax }: { family: Family; nameMax: number }) {
  const t = useTranslations("Family");
  const router = useRouter();
  const { busy, error, status, run } = useAction();
  const [nameError, setNameError] = useState<string>();
  const [confirming, setConfirming] = useState(false);
  return (
    <>
      <form
        className="goal-form"
        noValidate
        aria-label={t("renameTitle")}
        onSubmit={(event) => {
          event.preventDefault();
          const name = String(new FormData(event.currentTarget).get("name") ?? "").trim();
          setNameError(undefined);
          if (!name) return setNameError(t("errorName", { max: nameMax }));
          void run(
            () => api.PATCH(API, { body: { name } }),
            (answer) => {
              if (answer.status === 400) {
                setNameError(t("errorName", { max: nameMax }));
                return "";
              }
              if (answer.status !== 200) return undefined;
              router.refresh();
              return t("saved");
            },
          );
        }}
      >
        <FormMessage kind="error" message={error} />
        <Field label={t("nameLabel")} error={nameError}>
          {(control) => (
            <input
              {...control}
              name="name"
              type="text"
              required
              maxLength={nameMax}
              defaultValue={family.name}
              dir="auto"
              autoComplete="off"
            />
          )}
        </Field>
        <div className="goal-actions">
          <button className="button primary" type="submit" disabled={busy}>
            {t("save")}
          </button>
        </div>
        <FormMessage kind="status" message={status} />
      </form>
      <div className="circle-danger">
        {confirming ? (
          <div role="group" aria-labelledby="family-delete-question" className="circle-confirm">
            <p id="family-delete-question" dir="auto">
              {t("deleteQuestion", { name: family.name })}
            </p>
            <div className="circle-buttons">
              <button
                type="button"
                className="button danger"
                disabled={busy}
                onClick={() =>
                  void run(
                    () => api.DELETE(API),
                    (answer) => {
                      if (answer.status !== 204) return undefined;
                      setConfirming(false);
                      router.refresh();
                      return "";
                    },
                  )
                }
              >
                {t("deleteConfirm")}
              </button>
              <button type="button" className="button" disabled={busy} onClick={() => setConfirming(false)} autoFocus>
                {t("cancel")}
              </button>
            </div>
          </div>
        ) : (
          <button type="button" className="button danger" onClick={() => setConfirming(true)}>
            {t("delete")}
          </button>
        )}
      </div>
    </>
  );
}
