import type { Metadata } from "next";
import { notFound, redirect } from "next/navigation";
import { NextIntlClientProvider } from "next-intl";
import { getMessages, getTranslations, setRequestLocale } from "next-intl/server";
import { ExternalProviders } from "@/components/auth/external-providers";
import { safeNextPath, signInPath } from "@/components/auth/next-path";
import { pageActor } from "@/components/auth/page-session";
import { RegisterForm, SignInForm } from "@/components/auth/sign-in-forms";
import { pickMessages } from "@/components/i18n/client-messages";
import { PASSWORD_MIN_LENGTH } from "@/lib/auth/passwords";
import { tagOfSegment } from "@/lib/i18n/locales";
import "@/components/auth/auth.css";

/**
 * /{locale}/sign-in: sign in with a password, a passkey or a configured external account; `?mode=register`
 * shows the registration form instead. `?next=` (a path on this site, anything else is ignored) is where the
 * visitor goes once signed in, else their tasks in their profile's language. A visitor who is already signed in
 * goes straight there.
 */
type Props = {
  params: Promise<{ locale: string }>;
  searchParams: Promise<{ next?: string | string[]; mode?: string | string[]; oauthError?: string | string[] }>;
};

export async function generateMetadata({ params, searchParams }: Props): Promise<Metadata> {
  const tag = tagOfSegment((await params).locale);
  if (!tag) return {};
  const t = await getTranslations({ locale: tag, namespace: "SignIn" });
  return { title: (await searchParams).mode === "register" ? t("registerMetaTitle") : t("metaTitle") };
}

const OAUTH_ERRORS = ["expired", "cancelled", "exists", "unverified", "disabled", "failed"] as const;

export default async function SignInPage({ params, searchParams }: Props) {
  const [{ locale }, query] = await Promise.all([params, searchParams]);
  const tag = tagOfSegment(locale);
  if (!tag) notFound();
  setRequestLocale(tag);
  const next = safeNextPath(query.next);
  const actor = await pageActor();
  if (actor) redirect(next ?? `/${actor.locale}/tasks`);

  const t = await getTranslations({ locale: tag, namespace: "SignIn" });
  const registering = query.mode === "register";
  const registerQuery = new URLSearchParams({ mode: "register", ...(next ? { next } : {}) });
  const otherMode = registering ? signInPath(locale, next ?? undefined) : `/${locale}/sign-in?${registerQuery}`;
  const switchLink = (chunks: React.ReactNode) => <a href={otherMode}>{chunks}</a>;
  // Set by /auth/<provider>/callback when a sign-in with an external account failed.
  const oauthError = OAUTH_ERRORS.find((reason) => reason === query.oauthError);

  return (
    <NextIntlClientProvider messages={pickMessages(await getMessages({ locale: tag }), ["SignIn"])}>
      <div className="auth">
        <section className="auth-card" aria-labelledby="auth-title">
          <h1 id="auth-title">{registering ? t("registerTitle") : t("title")}</h1>
          <p className="auth-lead">{registering ? t("registerLead") : t("lead")}</p>
          {oauthError && (
            <p className="auth-form-error" role="alert">
              {t(`oauthErrors.${oauthError}`)}
            </p>
          )}
          {registering ? (
            <RegisterForm locale={locale} next={next} passwordMin={PASSWORD_MIN_LENGTH} />
          ) : (
            <SignInForm locale={locale} next={next} />
          )}
          {/* Without `next`, /tasks: the proxy sends it on in the language the sign-in has just set (NEXT_LOCALE). */}
          <ExternalProviders returnTo={next ?? "/tasks"} />
          <p className="auth-switch">
            {registering ? t.rich("haveAccount", { link: switchLink }) : t.rich("noAccount", { link: switchLink })}
          </p>
        </section>
      </div>
    </NextIntlClientProvider>
  );
}
