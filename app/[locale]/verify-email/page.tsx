import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { getTranslations, setRequestLocale } from "next-intl/server";
import { VerifyEmailStatus } from "@/components/auth/verify-email";
import { tagOfSegment } from "@/lib/i18n/locales";
import "@/components/auth/auth.css";

/** /{locale}/verify-email#token=…: the page the verification email links to; it confirms the address on opening. */
type Props = { params: Promise<{ locale: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const tag = tagOfSegment((await params).locale);
  if (!tag) return {};
  const t = await getTranslations({ locale: tag, namespace: "VerifyEmail" });
  return { title: t("metaTitle") };
}

export default async function VerifyEmailPage({ params }: Props) {
  const { locale } = await params;
  const tag = tagOfSegment(locale);
  if (!tag) notFound();
  setRequestLocale(tag);
  const t = await getTranslations({ locale: tag, namespace: "VerifyEmail" });
  return (
    <div className="auth">
      <section className="auth-card" aria-labelledby="auth-title">
        <h1 id="auth-title">{t("title")}</h1>
        <VerifyEmailStatus locale={locale} />
      </section>
    </div>
  );
}
