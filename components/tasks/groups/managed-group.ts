import type { useTranslations } from "next-intl";
import type { ApiAnswer } from "@/lib/api-client/client";
import type { Locale } from "@/lib/i18n/locales";

/** A group as the sidebar's manager shows it (from `GET /groups?includeArchived=true&counts=true`). */
export interface ManagedGroup {
  id: string;
  name: string;
  names: Partial<Record<Locale, string>>;
  own: boolean;
  archived: boolean;
  openTasks: number;
}

/** What a change of the manager ends with: a message for the status region, or one for the alert. */
export type Outcome = { status: string } | { error: string };

/** The message for an answer that no form handles itself (or no answer at all: the network failed). */
export function failureMessage(
  t: ReturnType<typeof useTranslations<"TaskGroups">>,
  answer: ApiAnswer<unknown, unknown> | null,
): string {
  if (!answer) return t("errorOffline");
  if (answer.status === 401) return t("errorSignedOut");
  if (answer.status === 404) return t("errorNotFound");
  if (answer.status === 429) return t("errorRateLimited");
  return t("errorGeneric");
}
