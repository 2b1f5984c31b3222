import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { NextIntlClientProvider } from "next-intl";
import { getMessages, getTranslations, setRequestLocale } from "next-intl/server";
import { PASSWORD_MIN_LENGTH } from "@/lib/auth/passwords";
import { openDatabase } from "@/lib/db/client";
import { languageTag } from "@/lib/i18n/locales";
import { INVITATION_TTL_DAYS } from "@/lib/invitations/schema";
import { findInvitationPreview } from "@/lib/invitations/service";
import { InvitationProblem, InviteShell } from "../invite-shell";
import { inviteLocale } from "../locale";
import { AcceptForms } from "./accept-forms";
import { InvitationExpiry } from "./expiry";

/**
 * GET /invite/{token}: the public landing page of an invitation, in the visitor's language (`?lang=`, else
 * Accept-Language). It reads the invitation through the same service call as `GET /api/v1/invitations/preview/{token}`;
 * the forms accept through `POST /api/v1/invite/{token}/accept`. An invitation is to a task, a project, a family
 * workspace or a team. An unknown token is a 404 (not-found.tsx); a used, declined, withdrawn or expired one
 * explains itself.
 */
type Props = { params: Promise<{ token: string }>; searchParams: Promise<{ lang?: string | string[] }> };

export const dynamic = "force-dynamic";

export async function generateMetadata({ searchParams }: Props): Promise<Metadata> {
  const locale = await inviteLocale((await searchParams).lang);
  const t = await getTranslations({ locale: languageTag(locale), namespace: "Invite" });
  return { title: t("metaTitle") };
}

export default async function InvitePage({ params, searchParams }: Props) {
  const [{ token }, { lang }] = await Promise.all([params, searchParams]);
  const locale = await inviteLocale(lang);
  const tag = languageTag(locale);
  setRequestLocale(tag);
  await openDatabase();
  const preview = await findInvitationPreview(token);
  if (!preview) notFound();

  if (preview.status !== "pending") {
    const reason = preview.status === "accepted" ? "used" : preview.status;
    return (
      <InviteShell locale={locale}>
        <InvitationProblem locale={locale} reason={reason} inviterName={preview.inviterName} days={INVITATION_TTL_DAYS} />
      </InviteShell>
    );
  }

  const t = await getTranslations({ locale: tag, namespace: "Invite" });
  const messages = await getMessages({ locale: tag });
  const title =
    { task: preview.taskTitle, project: preview.projectName, family: preview.familyName, team: preview.teamName }[preview.kind] ??
    "";
  const inviter = preview.inviterName;
  const heading = {
    task: () => t("taskHeading", { inviter }),
    project: () => t("projectHeading", { inviter }),
    family: () => t("familyHeading", { inviter }),
    team: () => t("teamHeading", { inviter }),
  }[preview.kind]();
  const label = { task: "taskLabel", project: "projectLabel", family: "familyLabel", team: "teamLabel" } as const;
  const role = preview.projectRole ?? preview.familyRole ?? preview.teamRole;
  return (
    <InviteShell locale={locale}>
      <section className="invite-card" aria-labelledby="invite-title">
        <p className="eyebrow">{t("eyebrow")}</p>
        <h1 id="invite-title">{heading}</h1>
        <dl className="invite-facts">
          <div>
            <dt>{t(label[preview.kind])}</dt>
            <dd className="invite-target">{title}</dd>
          </div>
          {role && (
            <div>
              <dt>{t("roleLabel")}</dt>
              <dd>{t("role", { role })}</dd>
            </div>
          )}
        </dl>
        {preview.taskRole === "collaborator" && <p>{t("collaboratorNote", { inviter })}</p>}
        <NextIntlClientProvider locale={tag} messages={{ Invite: messages.Invite }} timeZone="UTC">
          <InvitationExpiry expiresAt={preview.expiresAt} />
        </NextIntlClientProvider>
      </section>
      <NextIntlClientProvider locale={tag} messages={{ Invite: messages.Invite }} timeZone="UTC">
        <AcceptForms
          token={token}
          locale={locale}
          kind={preview.kind}
          title={title}
          inviteeName={preview.inviteeName ?? ""}
          passwordMin={PASSWORD_MIN_LENGTH}
        />
      </NextIntlClientProvider>
    </InviteShell>
  );
}
