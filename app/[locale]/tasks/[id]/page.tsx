import type { Metadata } from "next";
import { notFound, redirect } from "next/navigation";
import { setRequestLocale } from "next-intl/server";
import { signInPath } from "@/components/auth/next-path";
import { TaskDetailContent, visibleTask } from "@/components/tasks/detail/task-detail-content";
import { tagOfSegment } from "@/lib/i18n/locales";

/**
 * /{locale}/tasks/{id}: one task with everything about it, as a page of its own (opened from a link, a reload or
 * the address bar; a click in the list or on the board shows the same in a side panel instead:
 * app/[locale]/@panel/(.)tasks/[id]). Signed-out visitors go to the sign-in page (and come back); a task the user
 * cannot see, or no task at all, is the 404 page, never a hint of its data.
 */
type Props = { params: Promise<{ locale: string; id: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { id } = await params;
  const { task } = await visibleTask(id);
  return { ...(task && { title: task.title }), robots: { index: false, follow: false } };
}

export default async function TaskPage({ params }: Props) {
  const { locale, id } = await params;
  const tag = tagOfSegment(locale);
  if (!tag) notFound();
  setRequestLocale(tag);
  const { actor, task } = await visibleTask(id);
  if (!actor) redirect(signInPath(locale, `/${locale}/tasks/${id}`));
  if (!task) notFound();
  return <TaskDetailContent locale={locale} tag={tag} actor={actor} record={task} />;
}
