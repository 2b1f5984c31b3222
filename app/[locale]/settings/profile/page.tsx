import type { Metadata } from "next";
import { notFound, redirect } from "next/navigation";
import { NextIntlClientProvider } from "next-intl";
import { getMessages, getTranslations, setRequestLocale } from "next-intl/server";
import { signInPath } from "@/components/auth/next-path";
import { pageActor } from "@/components/auth/page-session";
import { PasswordForm, ProfileForm } from "@/components/settings/profile-forms";
import { SettingsHeader } from "@/components/settings/settings-header";
import { getMe } from "@/lib/accounts/service";
import { PASSWORD_MIN_LENGTH } from "@/lib/auth/passwords";
import { languageTag, LOCALE_NAMES, LOCALES, tagOfSegment } from "@/lib/i18n/locales";
import "@/components/auth/auth.css";
import "@/components/settings/settings.css";

/**
 * /{locale}/settings/profile: the signed-in user's name, language and time zone, and their password.
 * Signed-in only: anyone else goes to the sign-in page, which brings them back here.
 */
type Props = { params: Promise<{ locale: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const tag = tagOfSegment((await params).locale);
  if (!tag) return {};
  const t = await getTranslations({ locale: tag, namespace: "Settings" });
  return { title: t("profileMetaTitle"), robots: { index: false, follow: false } };
}

/** The IANA zones this server accepts (it checks them with the same Intl), with the user's own always among them. */
function timeZones(current: string): string[] {
  const zones = Intl.supportedValuesOf("timeZone");
  return zones.includes(current) ? zones : [current, ...zones];
}

const LANGUAGES = LOCALES.map((code) => ({ value: code, label: LOCALE_NAMES[code], lang: languageTag(code) }));

export default async function ProfilePage({ params }: Props) {
  const { locale } = await params;
  const tag = tagOfSegment(locale);
  if (!tag) notFound();
  setRequestLocale(tag);
  const actor = await pageActor();
  if (!actor) redirect(signInPath(locale, `/${locale}/settings/profile`));

  const user = await getMe(actor);
  const t = await getTranslations({ locale: tag, namespace: "Settings" });
  const messages = await getMessages({ locale: tag });
  return (
    <div className="auth security">
      <SettingsHeader locale={locale} tag={tag} title={t("profileTitle")} lead={t("profileLead")} />
      <NextIntlClientProvider locale={tag} messages={{ Settings: messages.Settings }} timeZone={actor.timeZone}>
        <ProfileForm
          locale={locale}
          user={{ name: user.name, locale: user.locale, timeZone: user.timeZone }}
          languages={LANGUAGES}
          timeZones={timeZones(user.timeZone)}
        />
        <PasswordForm passwordMin={PASSWORD_MIN_LENGTH} />
      </NextIntlClientProvider>
    </div>
  );
}
