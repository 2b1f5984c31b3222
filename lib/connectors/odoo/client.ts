import type { SyncContext } from "../driver";
import { ConnectorError, expectSuccess, type ConnectorResponse } from "../http";
import type { OdooCredentials, OdooSettings } from "./schema";

/*
 * Odoo's external API, both flavours (sources: /work/shared/reference/protocols.md B1):
 *
 * - JSON-RPC (`POST /jsonrpc`, every version up to 19, deprecated in 19): `common.authenticate(db, login, key, {})`
 *   answers the user id or `false`; `object.execute_kw(db, uid, key, model, method, args, kwargs)` calls a model.
 *   Errors come with HTTP 200 and `{error: {code, message, data: {name, message, debug}}}`.
 * - JSON-2 (`POST /json/2/<model>/<method>`, Odoo 19+): `Authorization: bearer <API key>`, `X-Odoo-Database`, every
 *   argument named (`ids`, `domain`, `fields`, `vals_list`, `vals`...). Errors are 4xx/5xx with `{name, message}`.
 *
 * The version comes from `/web/webclient/version_info` (no authentication, in every version since 9), or from
 * `common.version()` where that route is missing. `auto` picks JSON-2 from major version 19 on.
 */

export type OdooFlavour = "jsonrpc" | "json2";

export interface OdooVersion {
  serverVersion: string;
  major: number;
}

/** An error Odoo itself answered (`odoo.exceptions.AccessDenied`...), with its exception name. */
export class OdooError extends ConnectorError {
  override name = "OdooError";

  constructor(
    readonly odooName: string,
    readonly odooMessage: string,
    transient: boolean,
    status?: number,
  ) {
    super(`Odoo answered ${shortName(odooName)}: ${odooMessage}`, transient, status);
  }

  /** Odoo refused the user: wrong credentials, or not allowed to do this. */
  get denied(): boolean {
    return /\.(AccessDenied|AccessError|Unauthorized|Forbidden)$/.test(this.odooName);
  }

  /** A business rule refused the call (UserError, ValidationError...), e.g. "a cron job holds the lock". */
  get refused(): boolean {
    return /\.(UserError|ValidationError|RedirectWarning|MissingError)$/.test(this.odooName);
  }
}

const shortName = (name: string) => name.split(".").pop() ?? name;

/** Names of failures worth trying again: the database was busy, a serialization conflict, a worker timeout. */
const TRANSIENT_NAMES =
  /(SerializationFailure|LockNotAvailable|OperationalError|ConcurrentUpdate|TooManyRequests|ServiceUnavailable)$/;

/** The first number of a version part: 17, "17", "saas~17" all give 17. */
export function majorOf(part: unknown): number | null {
  if (typeof part === "number" && Number.isInteger(part)) return part;
  const match = typeof part === "string" ? part.match(/\d+/) : null;
  return match ? Number(match[0]) : null;
}

type Context = SyncContext<OdooCredentials, OdooSettings>;

export interface CallOptions {
  /** A longer time limit than CONNECTOR_TIMEOUT_MS (a module install). */
  timeoutMs?: number;
}

/** A model method call with named arguments; the JSON-RPC form turns them into `execute_kw`'s args and kwargs. */
interface ModelCall {
  model: string;
  method: string;
  ids?: number[];
  /** Positional arguments of execute_kw, in order (JSON-2 names them). */
  args?: { name: string; value: unknown }[];
  kwargs?: Record<string, unknown>;
}

export class OdooClient {
  private rpcId = 0;
  private version: OdooVersion | null = null;
  private session: { flavour: OdooFlavour; uid: number | null } | null = null;

  constructor(private readonly context: Context) {}

  private get base(): string {
    return this.context.connection.baseUrl;
  }

  private get credentials(): OdooCredentials {
    return this.context.connection.credentials;
  }

  private get database(): string {
    return this.context.connection.settings.database;
  }

  private async post(
    path: string,
    body: unknown,
    headers: Record<string, string> = {},
    options: CallOptions = {},
  ): Promise<ConnectorResponse> {
    return this.context.request({
      method: "POST",
      url: `${this.base}${path}`,
      headers: { "content-type": "application/json", accept: "application/json", ...headers },
      body: JSON.stringify(body),
      timeoutMs: options.timeoutMs,
    });
  }

  /** One JSON-RPC 2.0 call; an `error` member (with HTTP 200) becomes an OdooError. */
  private async jsonRpc(path: string, params: unknown, options?: CallOptions): Promise<unknown> {
    const id = ++this.rpcId;
    const response = await this.post(path, { jsonrpc: "2.0", method: "call", params, id }, {}, options);
    if (response.status === 404) throw new ConnectorError(`Odoo has no ${path} (HTTP 404): check the address`, false, 404);
    const answer = parseJson(response, `Odoo's ${path}`);
    if (answer && typeof answer === "object" && "error" in answer && answer.error) {
      const error = answer.error as { message?: unknown; data?: { name?: unknown; message?: unknown } };
      const name = typeof error.data?.name === "string" ? error.data.name : "odoo.exceptions.UnknownError";
      const message = typeof error.data?.message === "string" ? error.data.message : String(error.message ?? "Odoo Server Error");
      throw new OdooError(name, message, TRANSIENT_NAMES.test(name), response.status);
    }
    if (response.status < 200 || response.status >= 300) throw httpFailure(response, `Odoo's ${path}`);
    if (!answer || typeof answer !== "object" || !("result" in answer)) {
      throw new ConnectorError(`Odoo's ${path} answered JSON without a result`, false, response.status);
    }
    return answer.result;
  }

  /** The server's version, without signing in. */
  async serverVersion(): Promise<OdooVersion> {
    if (this.version) return this.version;
    let info: unknown;
    try {
      info = await this.jsonRpc("/web/webclient/version_info", {});
    } catch (error) {
      if (!(error instanceof ConnectorError && error.status === 404)) throw error;
      info = await this.jsonRpc("/jsonrpc", { service: "common", method: "version", args: [] });
    }
    const record = (info ?? {}) as { server_version?: unknown; server_version_info?: unknown[] };
    const major = majorOf(record.server_version_info?.[0]) ?? majorOf(record.server_version);
    if (major === null) throw new ConnectorError("Odoo's version answer has no server_version_info", false);
    this.version = { serverVersion: typeof record.server_version === "string" ? record.server_version : String(major), major };
    return this.version;
  }

  /** The API flavour used: the setting, or for `auto` JSON-2 from Odoo 19 on. */
  async flavour(): Promise<OdooFlavour> {
    const wanted = this.context.connection.settings.apiFlavour ?? "auto";
    if (wanted !== "auto") return wanted;
    return (await this.serverVersion()).major >= 19 ? "json2" : "jsonrpc";
  }

  /**
   * Signs in: JSON-RPC `authenticate` (its uid; `false` = wrong login, key or database → OdooError AccessDenied);
   * JSON-2 checks the key with `res.users/context_get` (401 = wrong key). Answers the flavour.
   */
  async signIn(): Promise<OdooFlavour> {
    if (this.session) return this.session.flavour;
    const flavour = await this.flavour();
    if (flavour === "jsonrpc") {
      const uid = await this.jsonRpc("/jsonrpc", {
        service: "common",
        method: "authenticate",
        args: [this.database, this.credentials.login, this.credentials.apiKey, {}],
      });
      if (typeof uid !== "number" || uid <= 0) {
        throw new OdooError("odoo.exceptions.AccessDenied", "wrong login, password or API key, or wrong database", false);
      }
      this.session = { flavour, uid };
    } else {
      await this.json2({ model: "res.users", method: "context_get" }, {}, true);
      this.session = { flavour, uid: null };
    }
    return flavour;
  }

  /** The Odoo user id of the connection's login (to assign created tasks to). */
  async uid(): Promise<number> {
    await this.signIn();
    if (this.session!.uid !== null) return this.session!.uid;
    const [user] = (await this.call({
      model: "res.users",
      method: "search_read",
      args: [{ name: "domain", value: [["login", "=", this.credentials.login]] }],
      kwargs: { fields: ["id"], limit: 1 },
    })) as { id: number }[];
    if (!user) throw new ConnectorError(`Odoo has no user with the login ${this.credentials.login}`, false);
    this.session!.uid = user.id;
    return user.id;
  }

  private async json2(call: ModelCall, options: CallOptions, signingIn = false): Promise<unknown> {
    const body: Record<string, unknown> = {};
    if (call.ids) body.ids = call.ids;
    for (const arg of call.args ?? []) body[arg.name] = arg.value;
    Object.assign(body, call.kwargs);
    const response = await this.post(
      `/json/2/${encodeURIComponent(call.model)}/${encodeURIComponent(call.method)}`,
      body,
      { authorization: `bearer ${this.credentials.apiKey}`, "x-odoo-database": this.database },
      options,
    );
    if (response.status >= 200 && response.status < 300) return parseJson(response, "Odoo's JSON-2 API");
    const error = safeJson(response) as { name?: unknown; message?: unknown } | null;
    if (signingIn && response.status === 404 && !error?.name) {
      throw new ConnectorError("This Odoo has no JSON-2 API (it came with Odoo 19): choose JSON-RPC", false, 404);
    }
    if (error && typeof error.name === "string") {
      const transient = response.status >= 500 || response.status === 429 || TRANSIENT_NAMES.test(error.name);
      throw new OdooError(
        error.name,
        typeof error.message === "string" ? error.message : `HTTP ${response.status}`,
        transient,
        response.status,
      );
    }
    throw httpFailure(response, "Odoo's JSON-2 API");
  }

  /** Calls a model method in the connection's flavour (signing in first). */
  async call(call: ModelCall, options: CallOptions = {}): Promise<unknown> {
    const flavour = await this.signIn();
    if (flavour === "json2") return this.json2(call, options);
    const args = [...(call.ids ? [call.ids] : []), ...(call.args ?? []).map((arg) => arg.value)];
    return this.jsonRpc(
      "/jsonrpc",
      {
        service: "object",
        method: "execute_kw",
        args: [this.database, this.session!.uid, this.credentials.apiKey, call.model, call.method, args, call.kwargs ?? {}],
      },
      options,
    );
  }

  async searchRead<T>(
    model: string,
    domain: unknown[],
    fields: string[],
    page: { limit?: number; offset?: number; order?: string } = {},
  ): Promise<T[]> {
    const result = await this.call({
      model,
      method: "search_read",
      args: [{ name: "domain", value: domain }],
      kwargs: { fields, ...page },
    });
    if (!Array.isArray(result)) throw new ConnectorError(`Odoo's ${model}.search_read did not answer a list`, false);
    return result as T[];
  }

  /** Creates one record; answers its id (JSON-RPC answers the id of a single dict, JSON-2 the list of ids). */
  async create(model: string, values: Record<string, unknown>): Promise<number> {
    const flavour = await this.signIn();
    const result = await this.call({
      model,
      method: "create",
      args: [{ name: "vals_list", value: flavour === "json2" ? [values] : values }],
    });
    const id = Array.isArray(result) ? result[0] : result;
    if (typeof id !== "number") throw new ConnectorError(`Odoo's ${model}.create did not answer an id`, false);
    return id;
  }

  async write(model: string, ids: number[], values: Record<string, unknown>): Promise<void> {
    await this.call({ model, method: "write", ids, args: [{ name: "vals", value: values }] });
  }
}

function safeJson(response: ConnectorResponse): unknown {
  try {
    return JSON.parse(response.body.toString("utf8"));
  } catch {
    return null;
  }
}

function parseJson(response: ConnectorResponse, what: string): unknown {
  try {
    return JSON.parse(response.body.toString("utf8"));
  } catch {
    if (response.status < 200 || response.status >= 300) throw httpFailure(response, what);
    throw new ConnectorError(`${what} did not answer JSON (is this an Odoo address?)`, false, response.status);
  }
}

/** The ConnectorError for an answer that is not 2xx (5xx and 429 transient), with an excerpt of the body. */
function httpFailure(response: ConnectorResponse, what: string): ConnectorError {
  try {
    expectSuccess(response, what);
  } catch (error) {
    if (error instanceof ConnectorError) return error;
  }
  return new ConnectorError(`${what} answered HTTP ${response.status}`, false, response.status);
}
