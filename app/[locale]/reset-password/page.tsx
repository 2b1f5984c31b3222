import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { NextIntlClientProvider } from "next-intl";
import { getMessages, getTranslations, setRequestLocale } from "next-intl/server";
import { ResetPasswordForm } from "@/components/auth/password-reset-forms";
import { pickMessages } from "@/components/i18n/client-messages";
import { PASSWORD_MIN_LENGTH } from "@/lib/auth/passwords";
import { tagOfSegment } from "@/lib/i18n/locales";
import "@/components/auth/auth.css";

/**
 * /{locale}/reset-password#token=…: the page the password-reset email links to. The token is in the fragment, which
 * the browser never sends: the form reads it and sends it with the new password.
 */
type Props = { params: Promise<{ locale: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const tag = tagOfSegment((await params).locale);
  if (!tag) return {};
  const t = await getTranslations({ locale: tag, namespace: "PasswordReset" });
  return { title: t("resetMetaTitle") };
}

export default async function ResetPasswordPage({ params }: Props) {
  const { locale } = await params;
  const tag = tagOfSegment(locale);
  if (!tag) notFound();
  setRequestLocale(tag);
  const t = await getTranslations({ locale: tag, namespace: "PasswordReset" });
  return (
    <NextIntlClientProvider messages={pickMessages(await getMessages({ locale: tag }), ["PasswordReset"])}>
      <div className="auth">
        <section className="auth-card" aria-labelledby="auth-title">
          <h1 id="auth-title">{t("resetTitle")}</h1>
          <p className="auth-lead">{t("resetLead")}</p>
          <ResetPasswordForm locale={locale} passwordMin={PASSWORD_MIN_LENGTH} />
        </section>
      </div>
    </NextIntlClientProvider>
  );
}
