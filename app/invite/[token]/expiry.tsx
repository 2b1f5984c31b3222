"use client";

import { useFormatter, useTranslations } from "next-intl";
import { useSyncExternalStore } from "react";

/** The browser's time zone; null when it names none (then the expiry stays in UTC). */
function browserTimeZone(): string | null {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || null;
}

const never = () => () => undefined;

/**
 * When the invitation expires, in the visitor's own time zone. The visitor is not signed in, so only their browser
 * knows the zone: the server renders the time in UTC (and says so), and the browser renders it again in its zone,
 * with the zone's name, as soon as the page is live.
 */
export function InvitationExpiry({ expiresAt }: { expiresAt: string }) {
  const t = useTranslations("Invite");
  const format = useFormatter();
  const timeZone = useSyncExternalStore(never, browserTimeZone, () => null) ?? "UTC";
  const date = format.dateTime(new Date(expiresAt), {
    year: "numeric",
    month: "long",
    day: "numeric",
    hour: "numeric",
    minute: "2-digit",
    timeZone,
    timeZoneName: "short",
  });
  return (
    <p className="invite-expiry">
      <time dateTime={expiresAt}>{t("expires", { date })}</time>
    </p>
  );
}
