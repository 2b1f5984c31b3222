import type { Metadata, Viewport } from "next";
import { notFound } from "next/navigation";
import { NextIntlClientProvider } from "next-intl";
import { getTranslations, setRequestLocale } from "next-intl/server";
import { SiteFooter } from "@/components/ui/site-footer";
import { SiteHeader } from "@/components/ui/site-header";
import { isRtl, LOCALES, tagOfSegment } from "@/lib/i18n/locales";
import "../globals.css";

/** `locale` is Spolu's code from the URL (`/ua`); next-intl and Intl get its tag (`uk`). */
type Props = { children: React.ReactNode; params: Promise<{ locale: string }> };

export function generateStaticParams() {
  return LOCALES.map((locale) => ({ locale }));
}

export async function generateMetadata({ params }: Omit<Props, "children">): Promise<Metadata> {
  const tag = tagOfSegment((await params).locale);
  if (!tag) return {};
  const t = await getTranslations({ locale: tag, namespace: "Common" });
  return { title: { default: t("appName"), template: `%s · ${t("appName")}` }, description: t("tagline") };
}

export const viewport: Viewport = {
  themeColor: [
    { media: "(prefers-color-scheme: light)", color: "#f7f8fc" },
    { media: "(prefers-color-scheme: dark)", color: "#10131c" },
  ],
};

export default async function LocaleLayout({ children, params }: Props) {
  const tag = tagOfSegment((await params).locale);
  if (!tag) notFound();
  setRequestLocale(tag);
  const t = await getTranslations({ locale: tag, namespace: "Common" });
  return (
    <html lang={tag} dir={isRtl(tag) ? "rtl" : "ltr"}>
      <body>
        <a className="skip-link" href="#main">
          {t("skipToContent")}
        </a>
        <NextIntlClientProvider>
          <SiteHeader />
          <main id="main" className="page">
            {children}
          </main>
          <SiteFooter />
        </NextIntlClientProvider>
      </body>
    </html>
  );
}
