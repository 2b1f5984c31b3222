"use client";

import { startRegistration, type PublicKeyCredentialCreationOptionsJSON } from "@simplewebauthn/browser";
import { useFormatter, useTranslations } from "next-intl";
import { useCallback, useEffect, useRef, useState } from "react";
import { ceremonyFailure, invalidFields, withExtensions } from "./call-api";
import { api } from "@/lib/api-client/client";
import { DeviceIcon } from "./device-icon";
import { FormError, TextField } from "./form-field";

/*
 * The passkeys of the signed-in user on /{locale}/settings/security: the list (`GET /api/v1/webauthn/devices`) with
 * each device's localized kind, name and dates; adding one (`POST …/register/options` → the browser's WebAuthn
 * prompt → `POST …/register/verify`), renaming one in place (`PATCH …/devices/{id}`) and removing one after a
 * confirmation (`DELETE …/devices/{id}`; refused while it is the only way to sign in). Outcomes are announced in a status region, failures as alerts; an
 * expired session sends the visitor to the sign-in page.
 */

export interface Device {
  id: string;
  name: string;
  /** `face`, `touch`, `android_fingerprint`, `windows_hello` or `generic`; the page translates it. */
  label: string;
  labelText?: string;
  createdAt: string;
  lastUsedAt: string | null;
}

/** The longest device name the API takes. */
const NAME_MAX = 100;

type RowError = { id: string; message: string };

export function PasskeyManager({ signInHref }: { signInHref: string }) {
  const t = useTranslations("Security");
  const format = useFormatter();
  const [devices, setDevices] = useState<Device[] | null>(null);
  const [loadFailed, setLoadFailed] = useState(false);
  const [status, setStatus] = useState("");
  const [adding, setAdding] = useState(false);
  const [addError, setAddError] = useState<{ form?: string; name?: string }>({});
  const [editing, setEditing] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const [rowBusy, setRowBusy] = useState<string | null>(null);
  const [rowError, setRowError] = useState<RowError | null>(null);
  /** The element to focus once the next render is on screen (by id). */
  const focusNext = useRef<string | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    if (!focusNext.current) return;
    const element = document.getElementById(focusNext.current);
    focusNext.current = null;
    element?.focus();
  });

  const sessionExpired = useCallback(() => window.location.assign(signInHref), [signInHref]);

  const load = useCallback(async () => {
    try {
      const answer = await api.GET("/api/v1/webauthn/devices");
      if (answer.status === 401) return sessionExpired();
      if (!answer.ok) return setLoadFailed(true);
      setDevices(answer.body.items);
      setLoadFailed(false);
    } catch {
      setLoadFailed(true);
    }
  }, [sessionExpired]);

  useEffect(() => {
    void load();
  }, [load]);

  function date(iso: string): string {
    return format.dateTime(new Date(iso), { dateStyle: "medium", timeStyle: "short" });
  }

  async function addDevice(form: HTMLFormElement) {
    const name = String(new FormData(form).get("name") ?? "").trim();
    if (name.length > NAME_MAX) return setAddError({ form: t("errorSummary"), name: t("errorName", { max: NAME_MAX }) });
    const options = await api.POST("/api/v1/webauthn/register/options", { body: {} });
    if (options.status === 401) return sessionExpired();
    if (!options.ok) return setAddError({ form: options.status === 429 ? t("errorRateLimited") : t("errorGeneric") });
    let response;
    try {
      // The schema types WebAuthn's enumerations as strings; @simplewebauthn/browser checks the options it is given.
      response = await startRegistration({ optionsJSON: options.body as PublicKeyCredentialCreationOptionsJSON });
    } catch (error) {
      const failure = ceremonyFailure(error);
      return setAddError({
        form: {
          cancelled: t("errorCancelled"),
          alreadyRegistered: t("errorAlreadyRegistered"),
          unsupported: t("errorUnsupported"),
          failed: t("errorFailed"),
        }[failure],
      });
    }
    const verified = await api.POST("/api/v1/webauthn/register/verify", {
      body: { response: withExtensions(response), ...(name ? { name } : {}) },
    });
    if (verified.status === 401) return sessionExpired();
    if (verified.status === 409) return setAddError({ form: t("errorAlreadyRegistered") });
    if (verified.status === 400 && invalidFields(verified.body).includes("name")) {
      return setAddError({ form: t("errorSummary"), name: t("errorName", { max: NAME_MAX }) });
    }
    if (!verified.ok) {
      return setAddError({ form: verified.status === 429 ? t("errorRateLimited") : t("errorFailed") });
    }
    form.reset();
    await load();
    setStatus(t("added", { name: verified.body.name ?? name }));
  }

  async function rename(device: Device, form: HTMLFormElement) {
    const name = String(new FormData(form).get("name") ?? "").trim();
    if (!name || name.length > NAME_MAX) return setRowError({ id: device.id, message: t("errorName", { max: NAME_MAX }) });
    const answer = await api.PATCH("/api/v1/webauthn/devices/{id}", { params: { path: { id: device.id } }, body: { name } });
    if (answer.status === 401) return sessionExpired();
    if (answer.status === 400) return setRowError({ id: device.id, message: t("errorName", { max: NAME_MAX }) });
    if (answer.status === 404) return gone(device);
    if (!answer.ok) return setRowError({ id: device.id, message: t("errorGeneric") });
    const renamed = answer.body.name ?? name;
    setDevices(
      (list) => list?.map((item) => (item.id === device.id ? { ...item, ...answer.body, name: renamed } : item)) ?? null,
    );
    setEditing(null);
    focusNext.current = `passkey-${device.id}-rename`;
    setStatus(t("renamed", { name: renamed }));
  }

  async function remove(device: Device) {
    const answer = await api.DELETE("/api/v1/webauthn/devices/{id}", { params: { path: { id: device.id } } });
    if (answer.status === 401) return sessionExpired();
    if (answer.status === 409) return setRowError({ id: device.id, message: t("errorLastMethod", { name: device.name }) });
    if (!answer.ok && answer.status !== 404) {
      return setRowError({ id: device.id, message: t("errorGeneric") });
    }
    setDevices((list) => list?.filter((item) => item.id !== device.id) ?? null);
    setConfirming(null);
    heading.current?.focus();
    setStatus(t("removed", { name: device.name }));
  }

  /** A device that another tab or device removed meanwhile. */
  async function gone(device: Device) {
    setEditing(null);
    setConfirming(null);
    await load();
    heading.current?.focus();
    setStatus(t("errorGone", { name: device.name }));
  }

  /** Runs one row action at a time, turning network failures into a message in that row. */
  async function rowAction(device: Device, action: () => Promise<void>) {
    if (rowBusy) return;
    setRowBusy(device.id);
    setRowError(null);
    try {
      await action();
    } catch {
      setRowError({ id: device.id, message: t("errorGeneric") });
    } finally {
      setRowBusy(null);
    }
  }

  function startEditing(device: Device) {
    setConfirming(null);
    setRowError(null);
    setEditing(device.id);
    focusNext.current = `passkey-${device.id}-name-input`;
  }

  function startConfirming(device: Device) {
    setEditing(null);
    setRowError(null);
    setConfirming(device.id);
    focusNext.current = `passkey-${device.id}-cancel`;
  }

  function closeRow(device: Device, returnTo: "rename" | "remove") {
    setEditing(null);
    setConfirming(null);
    setRowError(null);
    focusNext.current = `passkey-${device.id}-${returnTo}`;
  }

  return (
    <>
      <p className="auth-status" role="status">
        {status}
      </p>

      <section className="auth-card" aria-labelledby="passkeys-title">
        <h2 id="passkeys-title" ref={heading} tabIndex={-1}>
          {t("passkeysTitle")}
        </h2>
        <p className="auth-lead">{t("passkeysLead")}</p>

        {devices === null && !loadFailed && <p className="passkey-empty">{t("loading")}</p>}
        {loadFailed && (
          <div className="passkey-load-error">
            <p role="alert">{t("loadError")}</p>
            <button className="button" type="button" onClick={() => void load()}>
              {t("retry")}
            </button>
          </div>
        )}
        {devices !== null && devices.length === 0 && <p className="passkey-empty">{t("empty")}</p>}
        {devices !== null && devices.length > 0 && (
          <ul className="passkey-list" aria-labelledby="passkeys-title">
            {devices.map((device) => {
              const nameId = `passkey-${device.id}-name`;
              const busy = rowBusy === device.id;
              const error = rowError?.id === device.id ? rowError.message : undefined;
              return (
                <li key={device.id} className="passkey" data-device-id={device.id} aria-labelledby={nameId}>
                  <span className="passkey-icon">
                    <DeviceIcon label={device.label} />
                  </span>
                  <div className="passkey-body">
                    <h3 id={nameId} className="passkey-name">
                      <bdi>{device.name}</bdi>
                    </h3>
                    <p className="passkey-label" data-label={device.label}>
                      {t("label", { label: device.label })}
                    </p>
                    <dl className="passkey-dates">
                      <div>
                        <dt>{t("createdLabel")}</dt>
                        <dd>
                          <time dateTime={device.createdAt}>{date(device.createdAt)}</time>
                        </dd>
                      </div>
                      <div>
                        <dt>{t("lastUsedLabel")}</dt>
                        <dd>
                          {device.lastUsedAt ? (
                            <time dateTime={device.lastUsedAt}>{date(device.lastUsedAt)}</time>
                          ) : (
                            t("neverUsed")
                          )}
                        </dd>
                      </div>
                    </dl>
                  </div>

                  {editing === device.id ? (
                    <form
                      className="passkey-panel auth-form"
                      noValidate
                      onSubmit={(event) => {
                        event.preventDefault();
                        const form = event.currentTarget;
                        void rowAction(device, () => rename(device, form));
                      }}
                      onKeyDown={(event) => {
                        if (event.key === "Escape") closeRow(device, "rename");
                      }}
                    >
                      <RenameField device={device} label={t("renameLabel")} error={error} />
                      <div className="auth-buttons">
                        <button className="button primary" type="submit" disabled={busy} aria-busy={busy}>
                          {busy ? t("working") : t("save")}
                        </button>
                        <button className="button" type="button" onClick={() => closeRow(device, "rename")}>
                          {t("cancel")}
                        </button>
                      </div>
                    </form>
                  ) : confirming === device.id ? (
                    <div className="passkey-panel passkey-confirm" role="group" aria-labelledby={`passkey-${device.id}-question`}>
                      <p id={`passkey-${device.id}-question`}>{t("removeQuestion", { name: device.name })}</p>
                      {error && (
                        <p className="auth-form-error" role="alert">
                          {error}
                        </p>
                      )}
                      <div className="auth-buttons">
                        <button
                          className="button danger"
                          type="button"
                          disabled={busy}
                          aria-busy={busy}
                          onClick={() => void rowAction(device, () => remove(device))}
                        >
                          {busy ? t("working") : t("removeConfirm")}
                        </button>
                        <button
                          id={`passkey-${device.id}-cancel`}
                          className="button"
                          type="button"
                          onClick={() => closeRow(device, "remove")}
                        >
                          {t("cancel")}
                        </button>
                      </div>
                    </div>
                  ) : (
                    <div className="passkey-actions">
                      <button
                        id={`passkey-${device.id}-rename`}
                        className="button"
                        type="button"
                        aria-describedby={nameId}
                        onClick={() => startEditing(device)}
                      >
                        {t("rename")}
                      </button>
                      <button
                        id={`passkey-${device.id}-remove`}
                        className="button"
                        type="button"
                        aria-describedby={nameId}
                        onClick={() => startConfirming(device)}
                      >
                        {t("remove")}
                      </button>
                    </div>
                  )}
                </li>
              );
            })}
          </ul>
        )}
      </section>

      <section className="auth-card" aria-labelledby="passkey-add-title">
        <h2 id="passkey-add-title">{t("addTitle")}</h2>
        <p className="auth-lead">{t("addLead")}</p>
        <FormError id="passkey-add-error" message={addError.form} />
        <form
          className="auth-form"
          noValidate
          aria-describedby={addError.form ? "passkey-add-error" : undefined}
          onSubmit={async (event) => {
            event.preventDefault();
            if (adding) return;
            const form = event.currentTarget;
            setAdding(true);
            setAddError({});
            setStatus("");
            try {
              await addDevice(form);
            } catch {
              setAddError({ form: t("errorGeneric") });
            } finally {
              setAdding(false);
            }
          }}
        >
          <TextField
            name="name"
            label={t("nameLabel")}
            hint={t("nameHint")}
            autoComplete="off"
            maxLength={NAME_MAX}
            error={addError.name}
          />
          <button className="button primary" type="submit" disabled={adding} aria-busy={adding}>
            {adding ? t("addWorking") : t("addSubmit")}
          </button>
        </form>
      </section>
    </>
  );
}

/** The name input of the inline rename form, with the id the manager moves the focus to. */
function RenameField({ device, label, error }: { device: Device; label: string; error?: string }) {
  const id = `passkey-${device.id}-name-input`;
  return (
    <div className="auth-field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        name="name"
        type="text"
        autoComplete="off"
        defaultValue={device.name}
        required
        maxLength={NAME_MAX}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        dir="auto"
      />
      {error && (
        <p id={`${id}-error`} className="auth-field-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
