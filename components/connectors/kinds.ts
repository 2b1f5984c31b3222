import type { ModuleId } from "@/lib/modules/registry";

/*
 * The form fields of each kind of connection on /{locale}/settings/connections: one entry per kind, its module (the
 * kind is offered only while that module is on) and its fields, each going into `credentials` (stored encrypted,
 * never shown again) or `settings`. Labels and hints are messages `ConnectionSettings.field_<kind>_<name>` (and
 * `..._hint` where `hint` is set). The Moodle (`learning`) and POHODA (`accounting`) connectors add their entries.
 */

export type ConnectorKindId = "erp" | "learning" | "accounting";

export interface KindField {
  name: string;
  part: "credentials" | "settings";
  type: "text" | "password" | "number" | "select";
  required: boolean;
  /** The select's values: labels are messages `field_<kind>_<name>_<value>`, except names (`literal`) shown as they are. */
  options?: readonly string[];
  literal?: Readonly<Record<string, string>>;
  hint?: boolean;
  autoComplete?: string;
}

export interface KindDefinition {
  kind: ConnectorKindId;
  module: ModuleId;
  fields: readonly KindField[];
}

export const CONNECTOR_KIND_FIELDS: readonly KindDefinition[] = [
  {
    kind: "erp",
    module: "erp",
    fields: [
      { name: "database", part: "settings", type: "text", required: true, hint: true },
      { name: "login", part: "credentials", type: "text", required: true, autoComplete: "off" },
      { name: "apiKey", part: "credentials", type: "password", required: true, hint: true, autoComplete: "new-password" },
      {
        name: "apiFlavour",
        part: "settings",
        type: "select",
        required: false,
        options: ["auto", "jsonrpc", "json2"],
        literal: { jsonrpc: "JSON-RPC", json2: "JSON-2" },
      },
      { name: "projectId", part: "settings", type: "number", required: false, hint: true },
    ],
  },
  {
    kind: "learning",
    module: "learning",
    fields: [
      { name: "token", part: "credentials", type: "password", required: true, hint: true, autoComplete: "new-password" },
      { name: "userId", part: "settings", type: "number", required: false, hint: true },
    ],
  },
  {
    kind: "accounting",
    module: "accounting",
    fields: [
      { name: "ico", part: "settings", type: "text", required: true, hint: true },
      { name: "username", part: "credentials", type: "text", required: true, autoComplete: "off" },
      { name: "password", part: "credentials", type: "password", required: true, hint: true, autoComplete: "new-password" },
    ],
  },
];

/** A kind's `credentials` and `settings` from the add form's fields (empty optional fields left out). */
export function readKindValues(
  definition: KindDefinition,
  data: FormData,
): { credentials: Record<string, unknown>; settings: Record<string, unknown> } {
  const parts = { credentials: {} as Record<string, unknown>, settings: {} as Record<string, unknown> };
  for (const field of definition.fields) {
    const raw = String(data.get(`${field.part}.${field.name}`) ?? "").trim();
    if (!raw && !field.required) continue;
    parts[field.part][field.name] = field.type === "number" && /^-?\d+$/.test(raw) ? Number(raw) : raw;
  }
  return parts;
}
