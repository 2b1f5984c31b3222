import type { Metadata } from "next";
import { notFound, redirect } from "next/navigation";
import { NextIntlClientProvider } from "next-intl";
import { getMessages, getTranslations, setRequestLocale } from "next-intl/server";
import { signInPath } from "@/components/auth/next-path";
import { pageActor } from "@/components/auth/page-session";
import { REQUEST_LIST_LIMIT } from "@/components/requests/request-lists";
import { RequestsInbox } from "@/components/requests/requests-inbox";
import { nowDate } from "@/lib/clock";
import { listCollaborationRequests } from "@/lib/collaboration/service";
import { tagOfSegment } from "@/lib/i18n/locales";
import { listReceivedInvitations } from "@/lib/invitations/service";
import "@/components/auth/auth.css";
import "@/components/tasks/detail/task-detail.css";
import "@/components/requests/requests.css";

/**
 * /{locale}/requests: the invitations addressed to the user, the collaboration requests the user is asked to decide
 * and the ones they sent, read through the invitations and collaboration services with the user as actor. Signed-in only: anyone else goes to the sign-in page first.
 */
type Props = { params: Promise<{ locale: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const tag = tagOfSegment((await params).locale);
  if (!tag) return {};
  const t = await getTranslations({ locale: tag, namespace: "Requests" });
  return { title: t("metaTitle"), robots: { index: false, follow: false } };
}

export default async function RequestsPage({ params }: Props) {
  const { locale } = await params;
  const tag = tagOfSegment(locale);
  if (!tag) notFound();
  setRequestLocale(tag);
  const actor = await pageActor();
  if (!actor) redirect(signInPath(locale, `/${locale}/requests`));

  const [incoming, outgoing, invitations] = await Promise.all([
    listCollaborationRequests(actor, { box: "incoming", limit: REQUEST_LIST_LIMIT }),
    listCollaborationRequests(actor, { box: "outgoing", limit: REQUEST_LIST_LIMIT }),
    listReceivedInvitations(actor),
  ]);
  const messages = await getMessages({ locale: tag });
  return (
    <NextIntlClientProvider
      locale={tag}
      messages={{ Requests: messages.Requests, TaskFields: messages.TaskFields }}
      timeZone={actor.timeZone}
    >
      <RequestsInbox
        meId={actor.userId}
        timeZone={actor.timeZone}
        now={nowDate().toISOString()}
        locale={locale}
        incoming={incoming.items}
        outgoing={outgoing.items}
        invitations={invitations.items}
      />
    </NextIntlClientProvider>
  );
}
