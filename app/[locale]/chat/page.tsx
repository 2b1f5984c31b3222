import type { Metadata } from "next";
import { notFound, redirect } from "next/navigation";
import { NextIntlClientProvider } from "next-intl";
import { getMessages, getTranslations, setRequestLocale } from "next-intl/server";
import { ChatConversation } from "@/components/assistant/chat-conversation";
import { signInPath } from "@/components/auth/next-path";
import { pageActor } from "@/components/auth/page-session";
import { requirePageModule } from "@/components/modules/require-page-module";
import { answeringModel, listMessages } from "@/lib/assistant/service";
import { isLocale, languageTag, tagOfSegment } from "@/lib/i18n/locales";
import "@/components/assistant/assistant.css";

/**
 * /{locale}/chat: the conversation with the assistant (`/chat`), the latest messages rendered on the server, new
 * answers streamed in the browser. Signed-in only: anyone else goes to the sign-in page, which brings them back.
 */
type Props = { params: Promise<{ locale: string }> };

const FIRST_PAGE = 50;

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const tag = tagOfSegment((await params).locale);
  if (!tag) return {};
  const t = await getTranslations({ locale: tag, namespace: "Chat" });
  return { title: t("metaTitle"), robots: { index: false, follow: false } };
}

export default async function ChatPage({ params }: Props) {
  const { locale } = await params;
  if (!isLocale(locale)) notFound();
  const tag = languageTag(locale);
  requirePageModule("ai");
  setRequestLocale(tag);
  const actor = await pageActor();
  if (!actor) redirect(signInPath(locale, `/${locale}/chat`));

  const page = await listMessages(actor, { limit: FIRST_PAGE });
  const model = answeringModel();
  const t = await getTranslations({ locale: tag, namespace: "Chat" });
  const messages = await getMessages({ locale: tag });
  return (
    <div className="assistant-page">
      <header className="assistant-header">
        <h1>{t("title")}</h1>
        <p className="assistant-lead">{t("lead")}</p>
        <p className="assistant-lead">{model ? t("providerModel", { model }) : t("providerBuiltIn")}</p>
      </header>
      <NextIntlClientProvider locale={tag} messages={{ Chat: messages.Chat }} timeZone={actor.timeZone}>
        <ChatConversation
          initial={[...page.items].reverse()}
          olderCursor={page.nextCursor}
          locale={locale}
          timeZone={actor.timeZone}
        />
      </NextIntlClientProvider>
    </div>
  );
}
