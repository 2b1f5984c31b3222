import type { Metadata } from "next";
import { notFound, redirect } from "next/navigation";
import { NextIntlClientProvider } from "next-intl";
import { getMessages, getTranslations, setRequestLocale } from "next-intl/server";
import { signInPath } from "@/components/auth/next-path";
import { pageActor } from "@/components/auth/page-session";
import { GoalDetail } from "@/components/goals/goal-detail";
import { aiEndpointConfigured } from "@/lib/ai/provider";
import { AppError } from "@/lib/api/app-error";
import type { Actor } from "@/lib/auth/actor";
import { nowDate } from "@/lib/clock";
import { getGoal, listGoalReports, todayFor } from "@/lib/goals/service";
import { getStudyPlan } from "@/lib/goals/study-plan";
import { isModuleEnabled } from "@/lib/modules/registry";
import { tagOfSegment } from "@/lib/i18n/locales";
import "@/components/goals/goals.css";

/**
 * /{locale}/goals/{id}: one goal of the signed-in user's: its progress, details, linked tasks, progress reports
 * (chart and table) and study plan. Another user's goal, or none, is the 404 page. Signed-in only.
 */
type Props = { params: Promise<{ locale: string; id: string }> };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const tag = tagOfSegment((await params).locale);
  if (!tag) return {};
  const t = await getTranslations({ locale: tag, namespace: "Goals" });
  return { title: t("detailMetaTitle"), robots: { index: false, follow: false } };
}

/** What a service answers, or null for its 404 (another user's goal, no plan yet). */
async function orNull<T>(read: Promise<T>): Promise<T | null> {
  try {
    return await read;
  } catch (error) {
    if (error instanceof AppError && error.code === "not_found") return null;
    throw error;
  }
}

async function loadGoal(actor: Actor, id: string) {
  const goal = UUID.test(id) ? await orNull(getGoal(actor, id)) : null;
  if (!goal) return null;
  // Study plans belong to the `ai` module: while it is off the page has no plan section.
  const [reports, plan] = await Promise.all([
    listGoalReports(actor, id),
    isModuleEnabled("ai") ? orNull(getStudyPlan(actor, id)) : null,
  ]);
  return { goal, reports: reports.items, plan };
}

export default async function GoalPage({ params }: Props) {
  const { locale, id } = await params;
  const tag = tagOfSegment(locale);
  if (!tag) notFound();
  setRequestLocale(tag);
  const actor = await pageActor();
  if (!actor) redirect(signInPath(locale, `/${locale}/goals/${id}`));

  const loaded = await loadGoal(actor, id);
  if (!loaded) notFound();
  const messages = await getMessages({ locale: tag });
  return (
    <div className="goals-page">
      <NextIntlClientProvider
        locale={tag}
        messages={{ Goals: messages.Goals, TaskFields: messages.TaskFields }}
        timeZone={actor.timeZone}
      >
        <GoalDetail
          locale={locale}
          goal={loaded.goal}
          reports={loaded.reports}
          plan={loaded.plan}
          today={todayFor(actor)}
          now={nowDate().toISOString()}
          timeZone={actor.timeZone}
          aiConfigured={aiEndpointConfigured()}
          studyPlans={isModuleEnabled("ai")}
        />
      </NextIntlClientProvider>
    </div>
  );
}
