import type { Metadata, Viewport } from "next";
import { cookies } from "next/headers";
import { notFound } from "next/navigation";
import { NextIntlClientProvider } from "next-intl";
import { getMessages, getTranslations, setRequestLocale } from "next-intl/server";
import { VERIFY_BANNER_COOKIE } from "@/components/auth/verify-banner-cookie";
import { VerifyEmailBanner } from "@/components/auth/verify-email";
import { shellMessages } from "@/components/i18n/client-messages";
import { pageUser } from "@/components/ui/page-user";
import { SiteFooter } from "@/components/ui/site-footer";
import { SiteHeader } from "@/components/ui/site-header";
import { THEME_COOKIE, themeOf } from "@/components/ui/theme";
import { isLocale, isRtl, LOCALES, languageTag, tagOfSegment } from "@/lib/i18n/locales";
import "../globals.css";
import "@/components/ui/shell.css";
import "@/components/shortcuts/shortcuts.css";
import "@/components/notifications/notifications.css";
import "@/components/auth/verify-email.css";

/**
 * `locale` is Spolu's code from the URL (`/ua`); next-intl and Intl get its tag (`uk`). `panel` is the side panel
 * slot (./@panel): a task opened from the list or the board, shown over them; nothing elsewhere.
 */
type Props = { children: React.ReactNode; panel: React.ReactNode; params: Promise<{ locale: string }> };

export function generateStaticParams() {
  return LOCALES.map((locale) => ({ locale }));
}

export async function generateMetadata({ params }: Pick<Props, "params">): Promise<Metadata> {
  const tag = tagOfSegment((await params).locale);
  if (!tag) return {};
  const t = await getTranslations({ locale: tag, namespace: "Common" });
  return { title: { default: t("appName"), template: `%s · ${t("appName")}` }, description: t("tagline") };
}

/** The browser's own bars take the page's background (--bg in app/globals.css): the chosen theme's, or the system's. */
const THEME_COLOR = { light: "#f7f8fc", dark: "#10131c" } as const;

async function chosenTheme() {
  return themeOf((await cookies()).get(THEME_COOKIE.name)?.value);
}

export async function generateViewport(): Promise<Viewport> {
  const theme = await chosenTheme();
  if (theme) return { themeColor: THEME_COLOR[theme] };
  return {
    themeColor: [
      { media: "(prefers-color-scheme: light)", color: THEME_COLOR.light },
      { media: "(prefers-color-scheme: dark)", color: THEME_COLOR.dark },
    ],
  };
}

export default async function LocaleLayout({ children, panel, params }: Props) {
  const { locale } = await params;
  if (!isLocale(locale)) notFound();
  const tag = languageTag(locale);
  setRequestLocale(tag);
  const t = await getTranslations({ locale: tag, namespace: "Common" });
  // The visitor's theme, rendered with the page so that the first paint has its colours (components/ui/theme.ts).
  const theme = await chosenTheme();
  // A signed-in person whose address is not confirmed is told so on every page, until they confirm or dismiss it.
  const user = await pageUser();
  const bannerDismissed = (await cookies()).get(VERIFY_BANNER_COOKIE)?.value === "dismissed";
  // The shell's messages only: each page gives its own client components theirs (components/i18n/client-messages.ts).
  const messages = shellMessages(await getMessages({ locale: tag }));
  return (
    <html lang={tag} dir={isRtl(tag) ? "rtl" : "ltr"} data-theme={theme ?? undefined}>
      <body>
        <a className="skip-link" href="#main">
          {t("skipToContent")}
        </a>
        <NextIntlClientProvider messages={messages}>
          <SiteHeader locale={locale} theme={theme ?? "system"} />
          {user && !user.emailVerified && !bannerDismissed && <VerifyEmailBanner email={user.email} />}
          <main id="main" className="page">
            {children}
          </main>
          {panel}
          <SiteFooter />
        </NextIntlClientProvider>
      </body>
    </html>
  );
}
