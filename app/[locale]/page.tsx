import type { Metadata } from "next";
import { getTranslations, setRequestLocale } from "next-intl/server";
import { notFound } from "next/navigation";
import { CheckIcon, CodeIcon, HomeIcon, PersonIcon, TeamIcon } from "@/components/ui/icons";
import { pageUser } from "@/components/ui/page-user";
import { Link } from "@/i18n/navigation";
import { tagOfSegment } from "@/lib/i18n/locales";

/** `locale` is Spolu's code from the URL; see app/[locale]/layout.tsx. */
type Props = { params: Promise<{ locale: string }> };

/** Invitations expire after this many days (interface spec, section 8). */
const INVITATION_DAYS = 7;

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const tag = tagOfSegment((await params).locale);
  if (!tag) return {};
  const t = await getTranslations({ locale: tag, namespace: "Home" });
  return { title: { absolute: t("metaTitle") }, description: t("metaDescription") };
}

const AUDIENCES = [
  { key: "individuals", Icon: PersonIcon },
  { key: "teams", Icon: TeamIcon },
  { key: "families", Icon: HomeIcon },
] as const;

const FEATURES = [
  "featureSubtasks",
  "featureRecurrence",
  "featureCollaboration",
  "featureInvitations",
  "featureNotifications",
  "featureRealtime",
  "featureSignIn",
  "featureData",
] as const;

/**
 * The landing page: what Spolu is, for whom and what it does. A visitor's first action is "Get started" (the sign-up
 * form), in the hero so that a phone shows it without opening the menu; the API is further down, for developers. A
 * signed-in visitor is greeted and sent on to their tasks instead.
 */
export default async function HomePage({ params }: Props) {
  const tag = tagOfSegment((await params).locale);
  if (!tag) notFound();
  setRequestLocale(tag);
  const t = await getTranslations({ locale: tag, namespace: "Home" });
  const user = await pageUser();
  return (
    <div className="home">
      <section className="hero" aria-labelledby="hero-title">
        <p className="eyebrow">{user ? t("welcomeBack", { name: user.name }) : t("heroEyebrow")}</p>
        <h1 id="hero-title">{t("heroTitle")}</h1>
        <p className="lead">{t("heroLead")}</p>
        <div className="actions">
          {user ? (
            <>
              <Link className="button primary" href="/tasks">
                {t("ctaTasks")}
              </Link>
              <Link className="button" href="/board">
                {t("ctaBoard")}
              </Link>
            </>
          ) : (
            <>
              <Link className="button primary" href={{ pathname: "/sign-in", query: { mode: "register" } }}>
                {t("ctaGetStarted")}
              </Link>
              <a className="button" href="#features">
                {t("ctaFeatures")}
              </a>
            </>
          )}
        </div>
      </section>

      <section className="audiences" aria-labelledby="audiences-title">
        <h2 id="audiences-title">{t("audienceTitle")}</h2>
        <ul className="cards">
          {AUDIENCES.map(({ key, Icon }) => (
            <li key={key} className="card">
              <span className="card-icon">
                <Icon />
              </span>
              <h3>{t(`${key}Title`)}</h3>
              <p>{t(`${key}Body`)}</p>
            </li>
          ))}
        </ul>
      </section>

      <section id="features" className="features" aria-labelledby="features-title">
        <h2 id="features-title">{t("featuresTitle")}</h2>
        <ul className="checklist">
          {FEATURES.map((key) => (
            <li key={key}>
              <CheckIcon size={20} />
              <span>{key === "featureInvitations" ? t(key, { days: INVITATION_DAYS }) : t(key)}</span>
            </li>
          ))}
        </ul>
      </section>

      <section className="developers" aria-labelledby="developers-title">
        <span className="card-icon">
          <CodeIcon />
        </span>
        <div>
          <h2 id="developers-title">{t("developersTitle")}</h2>
          <p>{t("developersBody")}</p>
        </div>
        <a className="button primary" href="/docs">
          {t("ctaDocs")}
        </a>
      </section>
    </div>
  );
}
