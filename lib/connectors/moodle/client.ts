import type { SyncContext } from "../driver";
import { ConnectorError, expectSuccess } from "../http";

/*
 * Moodle's REST web services (protocols.md B2): `POST {site}/webservice/rest/server.php`, form-encoded, with
 * `wstoken`, `wsfunction` and `moodlewsrestformat=json` (the default format is XML) and the function's parameters,
 * arrays in PHP's bracket syntax (`courseids[0]=3`). Moodle answers errors with HTTP 200 and a JSON object holding
 * `exception`, `errorcode` and `message`; partial problems come as `warnings[]` beside the result.
 */

export type MoodleParams = Record<string, unknown>;

export interface MoodleWarning {
  item?: string;
  itemid?: number | string;
  warningcode?: string;
  message?: string;
}

/** The web service functions the driver calls: the token's external service must list each. */
export const MOODLE_FUNCTIONS = [
  "core_webservice_get_site_info",
  "core_enrol_get_users_courses",
  "mod_assign_get_assignments",
  "core_completion_get_activities_completion_status",
  "core_completion_get_course_completion_status",
  "gradereport_user_get_grade_items",
  "core_completion_update_activity_completion_status_manually",
] as const;

/** Error codes that mean the token is no good (or not allowed this function): nothing to retry, nothing per item. */
const AUTH_ERRORS = new Set(["invalidtoken", "accessexception", "servicerequireslogin", "usernotfullysetup"]);

/** Moodle answered with an exception object. Never transient: the same call would fail the same way. */
export class MoodleException extends ConnectorError {
  override name = "MoodleException";

  constructor(
    readonly wsfunction: string,
    readonly errorcode: string,
    readonly moodleMessage: string,
  ) {
    super(`Moodle refused ${wsfunction}: ${moodleMessage || errorcode} (${errorcode})`, false);
  }

  /** The token is invalid, expired, or its service does not offer the function. */
  get isAuthentication(): boolean {
    return AUTH_ERRORS.has(this.errorcode);
  }
}

/** Flattens parameters into PHP's form syntax: `courseids[0]=3`, `options[0][name]=x`; booleans as 1 and 0. */
export function phpFormFields(params: MoodleParams, prefix = ""): [string, string][] {
  const fields: [string, string][] = [];
  for (const [key, value] of Object.entries(params)) {
    const name = prefix ? `${prefix}[${key}]` : key;
    if (value === undefined || value === null) continue;
    if (Array.isArray(value))
      fields.push(...phpFormFields(Object.fromEntries(value.map((each, index) => [String(index), each])), name));
    else if (typeof value === "object") fields.push(...phpFormFields(value as MoodleParams, name));
    else if (typeof value === "boolean") fields.push([name, value ? "1" : "0"]);
    else fields.push([name, String(value)]);
  }
  return fields;
}

export function restUrl(baseUrl: string): string {
  return `${baseUrl}/webservice/rest/server.php`;
}

/** Calls one web service function and answers its JSON result; throws MoodleException for Moodle's error object. */
export async function callMoodle<T>(
  context: SyncContext<{ token: string }, unknown>,
  wsfunction: string,
  params: MoodleParams = {},
): Promise<T> {
  const body = new URLSearchParams([
    ["wstoken", context.connection.credentials.token],
    ["wsfunction", wsfunction],
    ["moodlewsrestformat", "json"],
    ...phpFormFields(params),
  ]).toString();
  const response = expectSuccess(
    await context.request({
      method: "POST",
      url: restUrl(context.connection.baseUrl),
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
      body,
    }),
    `Moodle (${wsfunction})`,
  );
  let answer: unknown;
  try {
    answer = JSON.parse(response.body.toString("utf8"));
  } catch {
    const excerpt = response.body.subarray(0, 120).toString("utf8").replace(/\s+/g, " ").trim();
    throw new ConnectorError(`Moodle (${wsfunction}) did not answer JSON (is this the site's address?): ${excerpt}`, false);
  }
  if (answer && typeof answer === "object" && !Array.isArray(answer) && "exception" in answer) {
    const error = answer as { errorcode?: unknown; message?: unknown };
    throw new MoodleException(wsfunction, String(error.errorcode ?? "unknown"), String(error.message ?? ""));
  }
  return answer as T;
}

/** One line per warning, for a run item's note. */
export function warningText(warnings: readonly MoodleWarning[] | undefined): string | undefined {
  if (!warnings?.length) return undefined;
  return warnings.map((warning) => `${warning.warningcode ?? "warning"}: ${warning.message ?? ""}`.trim()).join("; ");
}
