import { getTranslations } from "next-intl/server";
import { Logo } from "@/components/ui/logo";
import { isRtl, LOCALE_NAMES, LOCALES, languageTag, type Locale } from "@/lib/i18n/locales";

/**
 * The document of an invitation page in the visitor's language: `<html lang dir>` (right to left for Hebrew),
 * a header with links to the same page in the other languages (`?lang=`), and the content.
 */
export async function InviteShell({ locale, children }: { locale: Locale; children: React.ReactNode }) {
  const tag = languageTag(locale);
  const t = await getTranslations({ locale: tag });
  return (
    <html lang={tag} dir={isRtl(tag) ? "rtl" : "ltr"}>
      <body>
        <a className="skip-link" href="#main">
          {t("Common.skipToContent")}
        </a>
        <header className="site-header">
          <a href={`/${locale}`} className="brand" aria-label={`${t("Common.appName")} – ${t("Nav.home")}`}>
            <Logo />
            <span>{t("Common.appName")}</span>
          </a>
          <nav className="language-switcher invite-languages" aria-label={t("Nav.chooseLanguage")}>
            <ul>
              {LOCALES.map((other) => (
                <li key={other}>
                  {other === locale ? (
                    <span aria-current="true" title={t("Nav.currentLanguage", { language: LOCALE_NAMES[other] })}>
                      {LOCALE_NAMES[other]}
                    </span>
                  ) : (
                    <a href={`?lang=${other}`} hrefLang={languageTag(other)} lang={languageTag(other)}>
                      {LOCALE_NAMES[other]}
                    </a>
                  )}
                </li>
              ))}
            </ul>
          </nav>
        </header>
        <main id="main" className="page invite">
          {children}
        </main>
      </body>
    </html>
  );
}

/** Why an invitation link shows no invitation: unknown, used, declined, withdrawn or expired, and what to do about it. */
export async function InvitationProblem({
  locale,
  reason,
  inviterName,
  days,
}: {
  locale: Locale;
  reason: "notFound" | "used" | "declined" | "revoked" | "expired";
  inviterName?: string;
  days: number;
}) {
  const t = await getTranslations({ locale: languageTag(locale), namespace: "Invite" });
  const inviter = inviterName ?? "";
  const body = {
    notFound: () => t("notFoundBody"),
    used: () => t("usedBody", { inviter }),
    declined: () => t("declinedBody", { inviter }),
    revoked: () => t("revokedBody", { inviter }),
    expired: () => t("expiredBody", { inviter, days }),
  }[reason]();
  return (
    <section className="invite-card invite-problem" aria-labelledby="invite-problem-title" data-reason={reason}>
      <h1 id="invite-problem-title">{t(`${reason}Title`)}</h1>
      <p>{body}</p>
      <a className="button primary" href={`/${locale}`}>
        {t("goHome")}
      </a>
    </section>
  );
}
