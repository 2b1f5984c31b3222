import { setRequestLocale } from "next-intl/server";
import { languageTag } from "@/lib/i18n/locales";
import { INVITATION_TTL_DAYS } from "@/lib/invitations/schema";
import { InvitationProblem, InviteShell } from "../invite-shell";
import { inviteLocale } from "../locale";

/**
 * An unknown invitation token: a 404 that explains itself. A not-found page gets no search parameters, so its
 * language is the browser's (Accept-Language).
 */
export default async function InvitationNotFound() {
  const locale = await inviteLocale();
  setRequestLocale(languageTag(locale));
  return (
    <InviteShell locale={locale}>
      <InvitationProblem locale={locale} reason="notFound" days={INVITATION_TTL_DAYS} />
    </InviteShell>
  );
}
