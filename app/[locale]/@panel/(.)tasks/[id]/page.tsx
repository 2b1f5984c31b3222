import { notFound, redirect } from "next/navigation";
import { getTranslations, setRequestLocale } from "next-intl/server";
import { signInPath } from "@/components/auth/next-path";
import { TaskDetailContent, visibleTask } from "@/components/tasks/detail/task-detail-content";
import { TaskPanel } from "@/components/tasks/detail/task-panel";
import { tagOfSegment } from "@/lib/i18n/locales";
import "@/components/tasks/detail/task-panel.css";

/**
 * /{locale}/tasks/{id} reached by a click inside the site (a row of the list, a card of the board): the task in
 * a side panel over the page it was opened from, which stays as it was. Next.js intercepts only client-side
 * navigations; a reload or the address typed in shows the task page (app/[locale]/tasks/[id]). A task the user
 * cannot see says so in the panel, without a hint of its data.
 */
type Props = { params: Promise<{ locale: string; id: string }> };

export default async function TaskPanelPage({ params }: Props) {
  const { locale, id } = await params;
  const tag = tagOfSegment(locale);
  if (!tag) notFound();
  setRequestLocale(tag);
  const { actor, task } = await visibleTask(id);
  if (!actor) redirect(signInPath(locale, `/${locale}/tasks/${id}`));
  const t = await getTranslations({ locale: tag, namespace: "TaskDetail" });
  return (
    <TaskPanel
      taskId={id}
      pageHref={`/${locale}/tasks/${id}`}
      labels={{ close: t("closePanel"), openPage: t("openPage") }}
      {...(task ? { labelledBy: "task-heading" } : { label: t("panelNotFound") })}
    >
      {task ? (
        <TaskDetailContent locale={locale} tag={tag} actor={actor} record={task} />
      ) : (
        <p className="task-panel-missing">{t("panelNotFound")}</p>
      )}
    </TaskPanel>
  );
}
