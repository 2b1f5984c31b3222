import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { NextIntlClientProvider } from "next-intl";
import { getMessages, getTranslations, setRequestLocale } from "next-intl/server";
import { ForgotPasswordForm } from "@/components/auth/password-reset-forms";
import { pickMessages } from "@/components/i18n/client-messages";
import { tagOfSegment } from "@/lib/i18n/locales";
import "@/components/auth/auth.css";

/** /{locale}/forgot-password: ask for a link to choose a new password (linked from the sign-in page). */
type Props = { params: Promise<{ locale: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const tag = tagOfSegment((await params).locale);
  if (!tag) return {};
  const t = await getTranslations({ locale: tag, namespace: "PasswordReset" });
  return { title: t("requestMetaTitle") };
}

export default async function ForgotPasswordPage({ params }: Props) {
  const { locale } = await params;
  const tag = tagOfSegment(locale);
  if (!tag) notFound();
  setRequestLocale(tag);
  const t = await getTranslations({ locale: tag, namespace: "PasswordReset" });
  const signInLink = (chunks: React.ReactNode) => <a href={`/${locale}/sign-in`}>{chunks}</a>;
  return (
    <NextIntlClientProvider messages={pickMessages(await getMessages({ locale: tag }), ["PasswordReset"])}>
      <div className="auth">
        <section className="auth-card" aria-labelledby="auth-title">
          <h1 id="auth-title">{t("requestTitle")}</h1>
          <p className="auth-lead">{t("requestLead")}</p>
          <ForgotPasswordForm />
          <p className="auth-switch">{t.rich("backToSignIn", { link: signInLink })}</p>
        </section>
      </div>
    </NextIntlClientProvider>
  );
}
