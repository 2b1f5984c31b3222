import type { useTranslations } from "next-intl";

/** The message for an answer that is neither a success nor a problem the form handles itself. */
export function failureMessage(t: ReturnType<typeof useTranslations<"Teams">>, status: number): string {
  if (status === 401) return t("errorSignedOut");
  if (status === 403) return t("errorForbidden");
  if (status === 404) return t("errorNotFound");
  if (status === 409) return t("errorLastOwner");
  if (status === 429) return t("errorRateLimited");
  return t("errorGeneric");
}
