import type { Metadata } from "next";
import { notFound, redirect } from "next/navigation";
import { NextIntlClientProvider } from "next-intl";
import { getMessages, getTranslations, setRequestLocale } from "next-intl/server";
import { signInPath } from "@/components/auth/next-path";
import { pageActor } from "@/components/auth/page-session";
import { CreateFamilyForm, FamilyInvite, FamilyMembers, FamilySettings, SharedGroups } from "@/components/family/family-view";
import { requirePageModule } from "@/components/modules/require-page-module";
import { AppError } from "@/lib/api/app-error";
import type { Actor } from "@/lib/auth/actor";
import { FAMILY_NAME_MAX } from "@/lib/family/schema";
import { getFamily } from "@/lib/family/service";
import { listGroups } from "@/lib/groups/service";
import { isLocale, tagOfSegment, type Locale } from "@/lib/i18n/locales";
import "@/components/goals/goals.css";
import "@/components/teams/teams.css";

/**
 * /{locale}/family: the signed-in user's family workspace: its parents and children, inviting, the task groups
 * shared with it, renaming and deleting (parents); without one, a form to create it. Signed-in only; a page of
 * the `family` module (404 while it is off).
 */
type Props = { params: Promise<{ locale: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const tag = tagOfSegment((await params).locale);
  if (!tag) return {};
  const t = await getTranslations({ locale: tag, namespace: "Family" });
  return { title: t("title"), robots: { index: false, follow: false } };
}

/** The user's family workspace, or null when they belong to none. */
async function familyOf(actor: Actor, lang: Locale) {
  try {
    return await getFamily(actor, lang);
  } catch (error) {
    if (error instanceof AppError && error.code === "not_found") return null;
    throw error;
  }
}

export default async function FamilyPage({ params }: Props) {
  const { locale } = await params;
  const tag = tagOfSegment(locale);
  if (!tag || !isLocale(locale)) notFound();
  requirePageModule("family");
  setRequestLocale(tag);
  const actor = await pageActor();
  if (!actor) redirect(signInPath(locale, `/${locale}/family`));

  const [family, groups] = await Promise.all([familyOf(actor, locale), listGroups(actor, { lang: locale })]);
  const ownGroups = groups.items.filter((group) => group.own).map((group) => ({ id: group.id, name: group.name }));
  const t = await getTranslations({ locale: tag, namespace: "Family" });
  const messages = await getMessages({ locale: tag });
  return (
    <div className="circle-page">
      <header className="circle-header">
        <h1 dir="auto">{family ? family.name : t("title")}</h1>
        <p className="circle-lead">{t("lead")}</p>
        {family && (
          <p className="circle-meta">
            <span className="circle-role">{t("yourRole", { role: t(`role.${family.role}`) })}</span>
          </p>
        )}
      </header>
      <NextIntlClientProvider locale={tag} messages={{ Family: messages.Family }} timeZone={actor.timeZone}>
        {!family ? (
          <section className="circle-section" aria-labelledby="family-new-title">
            <h2 id="family-new-title">{t("newTitle")}</h2>
            <p className="goal-hint">{t("none")}</p>
            <CreateFamilyForm lang={locale} nameMax={FAMILY_NAME_MAX} />
          </section>
        ) : (
          <>
            <section className="circle-section" aria-labelledby="family-members-title">
              <h2 id="family-members-title">{t("membersTitle")}</h2>
              <FamilyMembers family={family} userId={actor.userId} />
            </section>
            <section className="circle-section" aria-labelledby="family-groups-title">
              <h2 id="family-groups-title">{t("groupsTitle")}</h2>
              <SharedGroups family={family} userId={actor.userId} ownGroups={ownGroups} lang={locale} />
            </section>
            {family.role === "parent" && (
              <section className="circle-section" aria-labelledby="family-invite-title">
                <h2 id="family-invite-title">{t("inviteTitle")}</h2>
                <FamilyInvite familyId={family.id} />
              </section>
            )}
            {family.role === "parent" && (
              <section className="circle-section" aria-labelledby="family-settings-title">
                <h2 id="family-settings-title">{t("renameTitle")}</h2>
                <FamilySettings family={family} nameMax={FAMILY_NAME_MAX} />
              </section>
            )}
          </>
        )}
      </NextIntlClientProvider>
    </div>
  );
}
