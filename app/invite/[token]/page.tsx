import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { NextIntlClientProvider } from "next-intl";
import { getFormatter, getMessages, getTranslations, setRequestLocale } from "next-intl/server";
import { PASSWORD_MIN_LENGTH } from "@/lib/auth/passwords";
import { openDatabase } from "@/lib/db/client";
import { languageTag } from "@/lib/i18n/locales";
import { INVITATION_TTL_DAYS } from "@/lib/invitations/schema";
import { findInvitationPreview } from "@/lib/invitations/service";
import { InvitationProblem, InviteShell } from "../invite-shell";
import { inviteLocale } from "../locale";
import { AcceptForms } from "./accept-forms";

/**
 * GET /invite/{token}: the public landing page of an invitation, in the visitor's language (`?lang=`, else
 * Accept-Language). It reads the invitation through the same service call as `GET /api/v1/invitations/preview/{token}`;
 * the forms accept through `POST /api/v1/invite/{token}/accept`. An unknown token is a 404 (not-found.tsx); a used,
 * withdrawn or expired one explains itself.
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
  const format = await getFormatter({ locale: tag });
  const messages = await getMessages({ locale: tag });
  const isTask = preview.kind === "task";
  const title = (isTask ? preview.taskTitle : preview.projectName) ?? "";
  // The visitor's time zone is unknown on the server: the expiry is given in UTC, and says so.
  const expires = format.dateTime(new Date(preview.expiresAt), {
    year: "numeric",
    month: "long",
    day: "numeric",
    hour: "numeric",
    minute: "2-digit",
    timeZone: "UTC",
    timeZoneName: "short",
  });

  return (
    <InviteShell locale={locale}>
      <section className="invite-card" aria-labelledby="invite-title">
        <p className="eyebrow">{t("eyebrow")}</p>
        <h1 id="invite-title">
          {isTask ? t("taskHeading", { inviter: preview.inviterName }) : t("projectHeading", { inviter: preview.inviterName })}
        </h1>
        <dl className="invite-facts">
          <div>
            <dt>{isTask ? t("taskLabel") : t("projectLabel")}</dt>
            <dd className="invite-target">{title}</dd>
          </div>
          {preview.projectRole && (
            <div>
              <dt>{t("roleLabel")}</dt>
              <dd>{t("role", { role: preview.projectRole })}</dd>
            </div>
          )}
        </dl>
        <p className="invite-expiry">
          <time dateTime={preview.expiresAt}>{t("expires", { date: expires })}</time>
        </p>
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
