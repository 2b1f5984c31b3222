import type { Metadata } from "next";
import { notFound, redirect } from "next/navigation";
import { NextIntlClientProvider } from "next-intl";
import { getMessages, getTranslations, setRequestLocale } from "next-intl/server";
import { AccessTokenManager } from "@/components/auth/access-token-manager";
import { LinkedAccounts } from "@/components/auth/linked-accounts";
import { signInPath } from "@/components/auth/next-path";
import { pageActor } from "@/components/auth/page-session";
import { PasskeyManager } from "@/components/auth/passkey-manager";
import { SessionList } from "@/components/auth/session-list";
import { SignOutButton } from "@/components/auth/sign-out-button";
import { tagOfSegment } from "@/lib/i18n/locales";
import "@/components/auth/auth.css";

/**
 * /{locale}/settings/security: the signed-in user's passkeys (list, add, rename, remove), the external accounts
 * linked to theirs (list, link another, unlink; `?linked=` / `?linkError=` after coming back from a provider), where they are signed in
 * (each session, which they can sign out), their personal access tokens (make one, see its secret once, revoke one)
 * and signing out.
 * Without a valid session cookie the visitor is sent to the sign-in page, which brings them back here.
 * Dates are shown in the user's own time zone (their profile's).
 */
type Props = { params: Promise<{ locale: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const tag = tagOfSegment((await params).locale);
  if (!tag) return {};
  const t = await getTranslations({ locale: tag, namespace: "Security" });
  return { title: t("metaTitle"), robots: { index: false, follow: false } };
}

export default async function SecurityPage({ params, searchParams }: Props) {
  const { locale } = await params;
  const { linked, linkError } = await searchParams;
  const tag = tagOfSegment(locale);
  if (!tag) notFound();
  setRequestLocale(tag);
  const actor = await pageActor();
  const here = `/${locale}/settings/security`;
  if (!actor) redirect(signInPath(locale, here));

  const t = await getTranslations({ locale: tag, namespace: "Security" });
  const messages = await getMessages({ locale: tag });
  const signInHref = signInPath(locale, here);
  return (
    <div className="auth security">
      <header className="security-header">
        <h1>{t("title")}</h1>
        <p className="auth-lead">
          {t.rich("signedInAs", { email: actor.email, strong: (chunks) => <strong dir="ltr">{chunks}</strong> })}
        </p>
      </header>
      <NextIntlClientProvider
        locale={tag}
        messages={{ Security: messages.Security, LinkedAccounts: messages.LinkedAccounts }}
        timeZone={actor.timeZone}
      >
        <PasskeyManager signInHref={signInHref} />
        <LinkedAccounts
          signInHref={signInHref}
          here={here}
          linked={typeof linked === "string" ? linked : undefined}
          linkError={typeof linkError === "string" ? linkError : undefined}
        />
        <SessionList signInHref={signInHref} />
        <AccessTokenManager signInHref={signInHref} />
        <section className="auth-card" aria-labelledby="sign-out-title">
          <h2 id="sign-out-title">{t("signOutTitle")}</h2>
          <p className="auth-lead">{t("signOutLead")}</p>
          <SignOutButton destination={`/${locale}/sign-in`} />
        </section>
      </NextIntlClientProvider>
    </div>
  );
}
