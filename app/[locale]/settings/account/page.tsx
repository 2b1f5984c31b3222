import type { Metadata } from "next";
import { notFound, redirect } from "next/navigation";
import { NextIntlClientProvider } from "next-intl";
import { getMessages, getTranslations, setRequestLocale } from "next-intl/server";
import { signInPath } from "@/components/auth/next-path";
import { pageActor } from "@/components/auth/page-session";
import { DeleteAccountForm } from "@/components/settings/delete-account-form";
import { SettingsHeader } from "@/components/settings/settings-header";
import { FRESH_SIGN_IN_MINUTES } from "@/lib/account-data/schema";
import { tagOfSegment } from "@/lib/i18n/locales";
import "@/components/auth/auth.css";
import "@/components/settings/settings.css";

/**
 * /{locale}/settings/account: download everything of yours (`GET /auth/export-data?format=zip`: the JSON and your attachment files in a ZIP) and
 * delete the account (`DELETE /delete-account`). Signed-in only: anyone else goes to the sign-in page first.
 */
type Props = { params: Promise<{ locale: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const tag = tagOfSegment((await params).locale);
  if (!tag) return {};
  const t = await getTranslations({ locale: tag, namespace: "Settings" });
  return { title: t("accountMetaTitle"), robots: { index: false, follow: false } };
}

export default async function AccountPage({ params }: Props) {
  const { locale } = await params;
  const tag = tagOfSegment(locale);
  if (!tag) notFound();
  setRequestLocale(tag);
  const actor = await pageActor();
  if (!actor) redirect(signInPath(locale, `/${locale}/settings/account`));

  const t = await getTranslations({ locale: tag, namespace: "Settings" });
  const messages = await getMessages({ locale: tag });
  return (
    <div className="auth security">
      <SettingsHeader locale={locale} tag={tag} title={t("accountTitle")} lead={t("accountLead")} />
      <section className="auth-card" aria-labelledby="export-title">
        <h2 id="export-title">{t("exportTitle")}</h2>
        <p className="auth-lead">{t("exportLead")}</p>
        <a className="button settings-download" href="/api/v1/auth/export-data?format=zip">
          {t("exportLink")}
        </a>
      </section>
      <NextIntlClientProvider locale={tag} messages={{ Settings: messages.Settings }} timeZone={actor.timeZone}>
        <DeleteAccountForm locale={locale} freshMinutes={FRESH_SIGN_IN_MINUTES} />
      </NextIntlClientProvider>
    </div>
  );
}
