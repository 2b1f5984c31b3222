"use client";

import { useTranslations } from "next-intl";
import { useRef, useState } from "react";
import type { Problem } from "@/lib/api-client/client";
import { api } from "@/lib/api-client/client";
import { FormError, TextField } from "@/components/auth/form-field";
import { WebhookSecret } from "@/components/settings/webhook-secret";
import type { ConnectionOutput } from "@/lib/connectors/schema";
import { ConnectionCard } from "./connection-card";
import { CONNECTOR_KIND_FIELDS, readKindValues, type ConnectorKindId, type KindDefinition } from "./kinds";

/*
 * /{locale}/settings/connections: adding a connection to an external system (`POST /connectors`) with its kind's
 * fields (components/connectors/kinds.ts), the incoming webhook's secret shown once, and the list of the
 * connections the user sees, each with its own actions (connection-card.tsx).
 */

type CreatedConnection = ConnectionOutput & { webhookSecret: string };

export interface TeamChoice {
  id: string;
  name: string;
  /** Whether the user may add the team's connections (its owner or an admin). */
  canAdd: boolean;
}

/** The form field names a 400 problem points at (`/credentials/apiKey` → `credentials.apiKey`). */
function fieldsOf(body: unknown): string[] {
  return ((body as Problem | null)?.errors ?? []).map(({ pointer }) => pointer.replace(/^\//, "").replace("/", "."));
}

function KindFields({ definition, errors }: { definition: KindDefinition; errors: Set<string> }) {
  const t = useTranslations("ConnectionSettings");
  return (
    <>
      {definition.fields.map((field) => {
        const name = `${field.part}.${field.name}`;
        const label = t(`field_${definition.kind}_${field.name}`);
        const hint = field.hint ? t(`field_${definition.kind}_${field.name}_hint`) : undefined;
        const error = errors.has(name) ? t("errorField") : undefined;
        if (field.type === "select") {
          return (
            <div className="auth-field" key={name}>
              <label htmlFor={`connection-${name}`}>{label}</label>
              <select
                id={`connection-${name}`}
                name={name}
                defaultValue={field.options?.[0]}
                aria-invalid={error ? true : undefined}
              >
                {field.options?.map((option) => (
                  <option key={option} value={option}>
                    {field.literal?.[option] ?? t(`field_${definition.kind}_${field.name}_${option}`)}
                  </option>
                ))}
              </select>
            </div>
          );
        }
        if (field.type === "number") {
          return (
            <div className="auth-field" key={name}>
              <label htmlFor={`connection-${name}`}>{label}</label>
              <input
                id={`connection-${name}`}
                name={name}
                type="number"
                min={1}
                inputMode="numeric"
                dir="ltr"
                aria-invalid={error ? true : undefined}
                aria-describedby={
                  [hint && `connection-${name}-hint`, error && `connection-${name}-error`].filter(Boolean).join(" ") || undefined
                }
              />
              {hint && (
                <p id={`connection-${name}-hint`} className="auth-hint">
                  {hint}
                </p>
              )}
              {error && (
                <p id={`connection-${name}-error`} className="auth-field-error">
                  {error}
                </p>
              )}
            </div>
          );
        }
        return (
          <TextField
            key={name}
            name={name}
            label={label}
            type={field.type}
            autoComplete={field.autoComplete ?? "off"}
            required={field.required}
            hint={hint}
            error={error}
          />
        );
      })}
    </>
  );
}

export function ConnectionSettings({
  initial,
  kinds,
  teams,
}: {
  initial: ConnectionOutput[];
  kinds: ConnectorKindId[];
  teams: TeamChoice[];
}) {
  const t = useTranslations("ConnectionSettings");
  const definitions = CONNECTOR_KIND_FIELDS.filter((definition) => kinds.includes(definition.kind));
  const [connections, setConnections] = useState(initial);
  const [kind, setKind] = useState<ConnectorKindId | undefined>(definitions[0]?.kind);
  const [created, setCreated] = useState<CreatedConnection | null>(null);
  const [errors, setErrors] = useState<{ form?: string; fields: Set<string> }>({ fields: new Set() });
  const [status, setStatus] = useState("");
  const [listStatus, setListStatus] = useState("");
  const [busy, setBusy] = useState(false);
  const [formKey, setFormKey] = useState(0);
  const listHeading = useRef<HTMLHeadingElement>(null);
  const definition = definitions.find((each) => each.kind === kind);
  const teamNames = new Map(teams.map((team) => [team.id, team.name]));

  async function create(form: HTMLFormElement) {
    if (!definition) return;
    const data = new FormData(form);
    const teamId = String(data.get("teamId") ?? "");
    const answer = await api.POST("/api/v1/connectors", {
      body: {
        kind: definition.kind,
        name: String(data.get("name") ?? ""),
        baseUrl: String(data.get("baseUrl") ?? ""),
        ...readKindValues(definition, data),
        ...(teamId && { teamId }),
      },
    });
    if (answer.ok) {
      const { webhookSecret: _secret, ...connection } = answer.body;
      setConnections((list) => [connection, ...list]);
      setCreated(answer.body);
      setFormKey((key) => key + 1);
      return setStatus(t("created"));
    }
    if (answer.status === 400) {
      const fields = new Set(fieldsOf(answer.body));
      return setErrors({ form: fields.size ? t("errorSummary") : t("errorGeneric"), fields });
    }
    setErrors({ form: answer.status === 403 ? t("errorForbidden") : t("errorGeneric"), fields: new Set() });
  }

  const fieldError = (name: string) => (errors.fields.has(name) ? t("errorField") : undefined);

  return (
    <>
      <section className="auth-card" aria-labelledby="connection-create-title">
        <h2 id="connection-create-title">{t("createTitle")}</h2>
        <FormError id="connection-create-error" message={errors.form} />
        <p className="auth-status" role="status">
          {status}
        </p>
        {created && (
          <WebhookSecret
            secret={created.webhookSecret}
            url={created.webhookPath}
            onDone={() => {
              setCreated(null);
              listHeading.current?.focus();
            }}
          />
        )}
        {definitions.length === 0 ? (
          <p>{t("noKinds")}</p>
        ) : (
          <form
            key={formKey}
            className="auth-form"
            noValidate
            aria-describedby={errors.form ? "connection-create-error" : undefined}
            onSubmit={async (event) => {
              event.preventDefault();
              if (busy) return;
              const form = event.currentTarget;
              setBusy(true);
              setErrors({ fields: new Set() });
              setStatus("");
              try {
                await create(form);
              } catch {
                setErrors({ form: t("errorGeneric"), fields: new Set() });
              } finally {
                setBusy(false);
              }
            }}
          >
            <div className="auth-field">
              <label htmlFor="connection-kind">{t("kindLabel")}</label>
              <select
                id="connection-kind"
                name="kind"
                value={kind}
                onChange={(event) => setKind(event.target.value as ConnectorKindId)}
              >
                {definitions.map((each) => (
                  <option key={each.kind} value={each.kind}>
                    {t(`kind_${each.kind}`)}
                  </option>
                ))}
              </select>
            </div>
            <TextField
              name="name"
              label={t("nameLabel")}
              autoComplete="off"
              required
              maxLength={100}
              error={fieldError("name")}
            />
            <TextField
              name="baseUrl"
              label={t("baseUrlLabel")}
              autoComplete="url"
              required
              hint={t("baseUrlHint")}
              error={fieldError("baseUrl")}
            />
            {definition && <KindFields key={definition.kind} definition={definition} errors={errors.fields} />}
            {teams.some((team) => team.canAdd) && (
              <div className="auth-field">
                <label htmlFor="connection-team">{t("teamLabel")}</label>
                <select id="connection-team" name="teamId" defaultValue="">
                  <option value="">{t("personal")}</option>
                  {teams
                    .filter((team) => team.canAdd)
                    .map((team) => (
                      <option key={team.id} value={team.id}>
                        {team.name}
                      </option>
                    ))}
                </select>
              </div>
            )}
            <button className="button primary" type="submit" disabled={busy} aria-busy={busy}>
              {busy ? t("creating") : t("create")}
            </button>
          </form>
        )}
      </section>

      <section className="auth-card" aria-labelledby="connection-list-title">
        <h2 id="connection-list-title" ref={listHeading} tabIndex={-1}>
          {t("listTitle")}
        </h2>
        <p className="auth-status" role="status">
          {listStatus}
        </p>
        {connections.length === 0 ? (
          <p>{t("empty")}</p>
        ) : (
          <ul className="connection-list">
            {connections.map((connection) => (
              <ConnectionCard
                key={connection.id}
                connection={connection}
                teamName={connection.teamId ? (teamNames.get(connection.teamId) ?? t("team")) : null}
                onChange={(changed) => setConnections((list) => list.map((item) => (item.id === changed.id ? changed : item)))}
                onDelete={(deleted) => {
                  setConnections((list) => list.filter((item) => item.id !== deleted));
                  setListStatus(t("deleted"));
                  listHeading.current?.focus();
                }}
              />
            ))}
          </ul>
        )}
      </section>
    </>
  );
}
