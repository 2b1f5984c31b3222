"use client";

import { useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { api } from "@/lib/api-client/client";
import type { ModuleOutput } from "@/lib/modules/schema";

/*
 * One module's switch on /{locale}/admin (`PUT /admin/modules/{id}`), named by its row's header, and "Reset to
 * configuration" (`DELETE`) while an administrator's choice holds. No confirmation: switching back is as easy, and
 * nothing is lost either way. The outcome is announced and the section rendered again on the server (the menu too).
 */
export function ModuleSwitch({ module, nameId, name }: { module: ModuleOutput; nameId: string; name: string }) {
  const t = useTranslations("Admin");
  const router = useRouter();
  const [enabled, setEnabled] = useState(module.enabled);
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<{ kind: "status" | "error"; text: string } | null>(null);

  async function send(method: "PUT" | "DELETE", enable?: boolean) {
    setBusy(true);
    setNotice(null);
    try {
      const answer =
        method === "PUT"
          ? await api.PUT("/api/v1/admin/modules/{id}", {
              params: { path: { id: module.id } },
              body: { enabled: enable ?? true },
            })
          : await api.DELETE("/api/v1/admin/modules/{id}", { params: { path: { id: module.id } } });
      if (answer.ok) {
        setEnabled(answer.body.enabled);
        const text =
          method === "DELETE"
            ? t("moduleReset", { name })
            : answer.body.enabled
              ? t("moduleSwitchedOn", { name })
              : t("moduleSwitchedOff", { name });
        setNotice({ kind: "status", text });
        router.refresh();
      } else {
        setNotice({
          kind: "error",
          text: answer.status === 401 ? t("errorSignedOut") : answer.status === 403 ? t("errorForbidden") : t("errorGeneric"),
        });
      }
    } catch {
      setNotice({ kind: "error", text: t("errorGeneric") });
    }
    setBusy(false);
  }

  return (
    <div className="admin-module-controls">
      <label className="admin-switch">
        <input
          type="checkbox"
          role="switch"
          checked={enabled}
          disabled={busy}
          aria-labelledby={nameId}
          onChange={(event) => void send("PUT", event.currentTarget.checked)}
        />
        <span aria-hidden="true">{enabled ? t("moduleOn") : t("moduleOff")}</span>
      </label>
      {module.source === "administrator" && (
        <button className="button" type="button" disabled={busy} onClick={() => void send("DELETE")}>
          {t("resetModule")}
          <span className="admin-visually-hidden"> {name}</span>
        </button>
      )}
      <p className="admin-notice" role="status">
        {notice?.kind === "status" ? notice.text : ""}
      </p>
      <p className="admin-error" role="alert">
        {notice?.kind === "error" ? notice.text : ""}
      </p>
    </div>
  );
}
