import { useTranslations } from "next-intl";
import type { ChatMessageOutput } from "@/lib/assistant/schema";

/** Which assistant wrote an answer, and whether the built-in one stood in for an unusable AI answer. */
export function AnsweredByNote({ answeredBy, fallback }: { answeredBy: ChatMessageOutput["answeredBy"]; fallback: boolean }) {
  const t = useTranslations("Chat");
  if (!answeredBy) return null;
  return (
    <p className="assistant-by">
      {answeredBy.provider === "built-in" ? t("answeredByBuiltIn") : t("answeredByModel", { model: answeredBy.model ?? "" })}
      {fallback && <span className="assistant-fallback"> {t("fallbackNote")}</span>}
    </p>
  );
}
