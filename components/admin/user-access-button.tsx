"use client";

import { useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { api } from "@/lib/api-client/client";

/*
 * Disable or enable one account from the users table of /{locale}/admin, after a confirmation that says what it
 * does (`POST /admin/users/{id}/disable` ends the person's sessions at once). The outcome is announced in the row
 * and the table is rendered again on the server (`router.refresh`) so that its status column follows.
 */
export function UserAccessButton({
  userId,
  name,
  disabled: initiallyDisabled,
}: {
  userId: string;
  name: string;
  disabled: boolean;
}) {
  const t = useTranslations("Admin");
  const router = useRouter();
  const [disabled, setDisabled] = useState(initiallyDisabled);
  const [step, setStep] = useState<"idle" | "confirm" | "busy">("idle");
  const [notice, setNotice] = useState<{ kind: "status" | "error"; text: string } | null>(null);
  const toggle = useRef<HTMLButtonElement>(null);
  const confirm = useRef<HTMLButtonElement>(null);
  // Where focus goes once the step is on screen: the question's button, or back to the toggle afterwards.
  const focusNext = useRef<"toggle" | "confirm" | null>(null);

  useEffect(() => {
    if (focusNext.current === "confirm") confirm.current?.focus();
    else if (focusNext.current === "toggle") toggle.current?.focus();
    focusNext.current = null;
  }, [step]);

  function ask() {
    setNotice(null);
    focusNext.current = "confirm";
    setStep("confirm");
  }

  function back() {
    focusNext.current = "toggle";
    setStep("idle");
  }

  async function apply() {
    setStep("busy");
    try {
      const answer = await api.POST(disabled ? "/api/v1/admin/users/{id}/enable" : "/api/v1/admin/users/{id}/disable", {
        params: { path: { id: userId } },
      });
      if (answer.ok) {
        const nowDisabled = answer.body.disabledAt !== null;
        setDisabled(nowDisabled);
        setNotice({ kind: "status", text: nowDisabled ? t("disabledDone", { name }) : t("enabledDone", { name }) });
        router.refresh();
      } else {
        setNotice({ kind: "error", text: failure(answer.status) });
      }
    } catch {
      setNotice({ kind: "error", text: t("errorGeneric") });
    }
    back();
  }

  function failure(status: number): string {
    if (status === 401) return t("errorSignedOut");
    if (status === 403) return t("errorForbidden");
    if (status === 404) return t("errorGone");
    if (status === 409) return t("errorRefused");
    if (status === 429) return t("errorRateLimited");
    return t("errorGeneric");
  }

  return (
    <div className="admin-access">
      {step === "idle" ? (
        <button ref={toggle} className="button" type="button" onClick={ask}>
          {disabled ? t("enable") : t("disable")}
          <span className="admin-visually-hidden"> {name}</span>
        </button>
      ) : (
        <div className="admin-confirm" role="group" aria-labelledby={`confirm-${userId}`}>
          <p id={`confirm-${userId}`}>{disabled ? t("enableQuestion", { name }) : t("disableQuestion", { name })}</p>
          <div className="admin-actions">
            <button
              ref={confirm}
              className={`button${disabled ? " primary" : " danger"}`}
              type="button"
              disabled={step === "busy"}
              aria-busy={step === "busy"}
              onClick={() => void apply()}
            >
              {disabled ? t("enableConfirm") : t("disableConfirm")}
            </button>
            <button className="button" type="button" disabled={step === "busy"} onClick={back}>
              {t("cancel")}
            </button>
          </div>
        </div>
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
