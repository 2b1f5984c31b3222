import type { Metadata } from "next";
import { notFound, redirect } from "next/navigation";
import { NextIntlClientProvider } from "next-intl";
import { getMessages, getTranslations, setRequestLocale } from "next-intl/server";
import { signInPath } from "@/components/auth/next-path";
import { pageActor } from "@/components/auth/page-session";
import { NotificationCenter } from "@/components/notifications/notification-center";
import { tagOfSegment } from "@/lib/i18n/locales";
import { listNotifications, unreadCount } from "@/lib/notifications/service";
import "@/components/auth/auth.css";
import "@/components/tasks/detail/task-detail.css";

/**
 * /{locale}/notifications: the user's in-app notifications, the first page read through the notifications service
 * with the user as actor, the rest a page at a time from the API. Signed-in only: anyone else goes to the sign-in
 * page first.
 */
/** Notifications per page, here and for "Show more". */
const PAGE_SIZE = 20;

type Props = { params: Promise<{ locale: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const tag = tagOfSegment((await params).locale);
  if (!tag) return {};
  const t = await getTranslations({ locale: tag, namespace: "Inbox" });
  return { title: t("metaTitle"), robots: { index: false, follow: false } };
}

export default async function NotificationsPage({ params }: Props) {
  const { locale } = await params;
  const tag = tagOfSegment(locale);
  if (!tag) notFound();
  setRequestLocale(tag);
  const actor = await pageActor();
  if (!actor) redirect(signInPath(locale, `/${locale}/notifications`));

  const [page, count] = await Promise.all([listNotifications(actor, { limit: PAGE_SIZE }), unreadCount(actor)]);
  const messages = await getMessages({ locale: tag });
  return (
    <NextIntlClientProvider locale={tag} messages={{ Inbox: messages.Inbox }} timeZone={actor.timeZone}>
      <NotificationCenter unread={count.unread} page={page} pageSize={PAGE_SIZE} timeZone={actor.timeZone} />
    </NextIntlClientProvider>
  );
}
