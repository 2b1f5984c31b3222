import http from "node:http";
import type { AddressInfo } from "node:net";

/*
 * A local Odoo for the tests, speaking the subset of Odoo's external API the `erp` connector uses, with Odoo's
 * request and error shapes (/work/shared/reference/protocols.md B1) and strict about what it accepts:
 *
 * - `POST /web/webclient/version_info` and `POST /jsonrpc` (JSON-RPC 2.0: `{"jsonrpc":"2.0","method":"call",
 *   "params":{...},"id":N}`): `common.version`, `common.authenticate(db, login, key, {})` (uid or false),
 *   `object.execute_kw(db, uid, key, model, method, args, kwargs)` (exactly 7 arguments). Errors are HTTP 200 with
 *   `{"error":{"code":200,"message":"Odoo Server Error","data":{"name","message","arguments","debug","context"}}}`;
 *   a body that is not JSON is a 400.
 * - `POST /json/2/<model>/<method>` from version 19 on (404 before): `Authorization: bearer <key>`, named
 *   arguments only; errors are 4xx/5xx with `{name, message, arguments, context, debug}`.
 * - Models: `res.users` (context_get, search_read), `ir.module.module` (search_read, button_immediate_install:
 *   administrators only, AccessDenied otherwise; a UserError while `cronLock`), `project.task` (search_read,
 *   create, write; unknown fields are a ValueError, a missing record a MissingError).
 * - Switches: `version` (17 or 19), `delayMs` (every answer), `installDelayMs`, `down` (503), `cronLock`.
 */

export interface OdooUser {
  id: number;
  login: string;
  key: string;
  admin: boolean;
}

export interface OdooTask {
  id: number;
  name: string;
  project_id: number | false;
  stage_id: number | false;
  user_ids: number[];
  date_deadline: string | false;
  description: string | false;
  priority: "0" | "1";
  state: string;
  write_date: string;
}

export interface OdooModule {
  id: number;
  name: string;
  shortdesc: string;
  application: boolean;
  state: string;
  latest_version: string | false;
  installed_version: string | false;
  depends?: string[];
}

export const ODOO_DATABASE = "spolu-test";
export const ODOO_ADMIN: OdooUser = { id: 2, login: "admin", key: "admin-api-key-123456", admin: true };
export const ODOO_CLERK: OdooUser = { id: 7, login: "clerk@example.com", key: "clerk-api-key-654321", admin: false };

const PROJECTS: Record<number, string> = { 1: "Internal", 5: "Website" };
const STAGES: Record<number, string> = { 1: "New", 2: "In Progress", 3: "Done" };
const TASK_FIELDS = new Set([
  "id",
  "name",
  "project_id",
  "stage_id",
  "user_ids",
  "date_deadline",
  "description",
  "priority",
  "state",
  "write_date",
  "active",
]);
const TASK_STATES = new Set([
  "01_in_progress",
  "02_changes_requested",
  "03_approved",
  "04_waiting_normal",
  "1_done",
  "1_canceled",
]);
const MODULE_FIELDS = new Set(["id", "name", "shortdesc", "application", "state", "latest_version", "installed_version"]);
const OPERATORS = new Set(["=", "!=", "in", "not in"]);
const CRON_LOCK_MESSAGE =
  "Odoo is currently processing a scheduled action.\nModule operations are not possible at this time, please try again later or contact your system administrator.";

export function defaultModules(): OdooModule[] {
  return [
    {
      id: 10,
      name: "base",
      shortdesc: "Base",
      application: false,
      state: "installed",
      latest_version: "17.0.1.3",
      installed_version: "17.0.1.3",
    },
    {
      id: 11,
      name: "project",
      shortdesc: "Project",
      application: true,
      state: "installed",
      latest_version: "17.0.1.3",
      installed_version: "17.0.1.3",
    },
    {
      id: 12,
      name: "crm",
      shortdesc: "CRM",
      application: true,
      state: "uninstalled",
      latest_version: "17.0.1.9",
      installed_version: false,
      depends: ["mail"],
    },
    {
      id: 13,
      name: "mail",
      shortdesc: "Discuss",
      application: true,
      state: "uninstalled",
      latest_version: "17.0.1.15",
      installed_version: false,
    },
    {
      id: 14,
      name: "l10n_cz",
      shortdesc: "Czech - Accounting",
      application: false,
      state: "uninstalled",
      latest_version: "17.0.1.0",
      installed_version: false,
    },
  ];
}

/** An Odoo exception, answered the way the flavour answers it. */
class OdooException extends Error {
  constructor(
    readonly odooName: string,
    message: string,
    /** JSON-2's HTTP status for it. */
    readonly status: number,
  ) {
    super(message);
  }
}

const accessDenied = () => new OdooException("odoo.exceptions.AccessDenied", "Access Denied", 403);
const valueError = (message: string) => new OdooException("builtins.ValueError", message, 422);
const typeError = (message: string) => new OdooException("builtins.TypeError", message, 422);

function now(): string {
  return new Date().toISOString().slice(0, 19).replace("T", " ");
}

export class OdooServer {
  url = "";
  version = 17;
  delayMs = 0;
  installDelayMs = 0;
  down = false;
  cronLock = false;
  users: OdooUser[] = [ODOO_ADMIN, ODOO_CLERK];
  tasks = new Map<number, OdooTask>();
  modules: OdooModule[] = defaultModules();
  /** Every call received: the path and, for model calls, `model.method`. */
  calls: string[] = [];
  private nextId = 100;
  private server = http.createServer((request, response) => void this.handle(request, response));

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  reset(version = 17): void {
    Object.assign(this, { version, delayMs: 0, installDelayMs: 0, down: false, cronLock: false, calls: [] });
    this.users = [ODOO_ADMIN, ODOO_CLERK];
    this.tasks = new Map();
    this.modules = defaultModules();
  }

  /** Adds a task as Odoo would store it (assigned to the administrator unless said otherwise). */
  addTask(fields: Partial<OdooTask> & { name: string }): OdooTask {
    const task: OdooTask = {
      id: this.nextId++,
      project_id: 5,
      stage_id: 1,
      user_ids: [ODOO_ADMIN.id],
      date_deadline: false,
      description: false,
      priority: "0",
      state: "01_in_progress",
      write_date: now(),
      ...fields,
    };
    this.tasks.set(task.id, task);
    return task;
  }

  private async handle(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString("utf8");
    if (this.delayMs) await new Promise((resolve) => setTimeout(resolve, this.delayMs));
    const url = new URL(request.url ?? "/", "http://odoo");
    this.calls.push(url.pathname);
    const send = (status: number, body: unknown, type = "application/json") => {
      if (response.destroyed) return;
      response.writeHead(status, { "content-type": type });
      response.end(typeof body === "string" ? body : JSON.stringify(body));
    };
    if (this.down) return send(503, "<html><body><h1>503 Service Unavailable</h1></body></html>", "text/html");
    if (request.method !== "POST") return send(405, "<h1>Method Not Allowed</h1>", "text/html");
    if (url.pathname === "/jsonrpc" || url.pathname === "/web/webclient/version_info")
      return this.jsonRpc(url.pathname, request, raw, send);
    const json2 = url.pathname.match(/^\/json\/2\/([a-z0-9_.]+)\/([a-z0-9_]+)$/);
    if (json2 && this.version >= 19) return this.json2(json2[1]!, json2[2]!, request, raw, send);
    send(404, "<!doctype html><title>404 Not Found</title><h1>Not Found</h1>", "text/html");
  }

  private async jsonRpc(
    path: string,
    request: http.IncomingMessage,
    raw: string,
    send: (status: number, body: unknown, type?: string) => void,
  ) {
    if (!/^application\/json/.test(request.headers["content-type"] ?? "")) {
      return send(
        400,
        "<h1>Bad Request</h1><p>Request inferred type is compatible with json but content-type is not</p>",
        "text/html",
      );
    }
    let body: { jsonrpc?: unknown; method?: unknown; params?: Record<string, unknown>; id?: unknown };
    try {
      body = JSON.parse(raw);
    } catch {
      return send(400, "<h1>Bad Request</h1><p>Invalid JSON data</p>", "text/html");
    }
    const id = body.id ?? null;
    const fail = (error: OdooException) =>
      send(200, {
        jsonrpc: "2.0",
        id,
        error: {
          code: 200,
          message: "Odoo Server Error",
          data: {
            name: error.odooName,
            debug: `Traceback (most recent call last):\n  ...\n${error.odooName}: ${error.message}\n`,
            message: error.message,
            arguments: [error.message],
            context: {},
          },
        },
      });
    try {
      if (body.jsonrpc !== "2.0" || body.method !== "call" || typeof body.params !== "object" || body.params === null) {
        throw new OdooException("werkzeug.exceptions.BadRequest", "Invalid JSON-RPC request", 400);
      }
      if (path === "/web/webclient/version_info") return send(200, { jsonrpc: "2.0", id, result: this.versionInfo() });
      const { service, method, args } = body.params as { service?: unknown; method?: unknown; args?: unknown };
      if (!Array.isArray(args)) throw typeError("dispatch() missing 'args'");
      if (service === "common" && method === "version") return send(200, { jsonrpc: "2.0", id, result: this.versionInfo() });
      if (service === "common" && method === "authenticate") {
        if (args.length !== 4) throw typeError(`authenticate() takes 4 positional arguments but ${args.length} were given`);
        const [database, login, key] = args;
        if (database !== ODOO_DATABASE) {
          throw new OdooException(
            "psycopg2.OperationalError",
            `connection to server failed: FATAL:  database "${String(database)}" does not exist`,
            500,
          );
        }
        const user = this.users.find((each) => each.login === login && each.key === key);
        return send(200, { jsonrpc: "2.0", id, result: user ? user.id : false });
      }
      if (service === "object" && method === "execute_kw") {
        if (args.length < 6 || args.length > 7)
          throw typeError(`execute_kw() takes from 6 to 7 positional arguments but ${args.length} were given`);
        const [database, uid, key, model, modelMethod, positional, kwargs] = args as [
          unknown,
          unknown,
          unknown,
          string,
          string,
          unknown,
          unknown,
        ];
        if (database !== ODOO_DATABASE)
          throw new OdooException("psycopg2.OperationalError", `FATAL:  database "${String(database)}" does not exist`, 500);
        const user = this.users.find((each) => each.id === uid && each.key === key);
        if (!user) throw accessDenied();
        if (!Array.isArray(positional)) throw typeError("execute_kw() args must be a list");
        if (kwargs !== undefined && (typeof kwargs !== "object" || kwargs === null || Array.isArray(kwargs)))
          throw typeError("execute_kw() kwargs must be a dict");
        const result = await this.callModel(
          user,
          model,
          modelMethod,
          this.named(model, modelMethod, positional, (kwargs ?? {}) as Record<string, unknown>),
          "jsonrpc",
        );
        return send(200, { jsonrpc: "2.0", id, result });
      }
      throw new OdooException("builtins.NameError", `Method not available ${String(method)}`, 404);
    } catch (error) {
      if (error instanceof OdooException) return fail(error);
      throw error;
    }
  }

  /** execute_kw's positional arguments by name, as the ORM binds them. */
  private named(model: string, method: string, positional: unknown[], kwargs: Record<string, unknown>): Record<string, unknown> {
    const names: Record<string, string[]> = {
      search_read: ["domain", "fields", "offset", "limit", "order"],
      create: ["vals_list"],
      write: ["ids", "vals"],
      button_immediate_install: ["ids"],
      context_get: [],
    };
    const order = names[method];
    if (!order) throw new OdooException("AttributeError", `The method '${method}' does not exist on the model '${model}'`, 404);
    if (positional.length > order.length)
      throw typeError(`${method}() takes ${order.length} positional arguments but ${positional.length} were given`);
    const named: Record<string, unknown> = {};
    positional.forEach((value, index) => (named[order[index]!] = value));
    for (const [key, value] of Object.entries(kwargs)) {
      if (key in named) throw typeError(`${method}() got multiple values for argument '${key}'`);
      named[key] = value;
    }
    return named;
  }

  private async json2(
    model: string,
    method: string,
    request: http.IncomingMessage,
    raw: string,
    send: (status: number, body: unknown) => void,
  ) {
    const fail = (error: OdooException) =>
      send(error.status, {
        name: error.odooName,
        message: error.message,
        arguments: [error.message, error.status],
        context: {},
        debug: `Traceback...\n${error.odooName}: ${error.message}`,
      });
    try {
      const bearer = (request.headers.authorization ?? "").match(/^bearer (.+)$/i)?.[1];
      const user = this.users.find((each) => each.key === bearer);
      if (!user) throw new OdooException("werkzeug.exceptions.Unauthorized", "Invalid apikey", 401);
      const database = request.headers["x-odoo-database"];
      if (database !== undefined && database !== ODOO_DATABASE)
        throw new OdooException("werkzeug.exceptions.NotFound", `database ${String(database)} not found`, 404);
      if (!/^application\/json/.test(request.headers["content-type"] ?? ""))
        throw new OdooException("werkzeug.exceptions.UnsupportedMediaType", "application/json expected", 415);
      let body: unknown;
      try {
        body = JSON.parse(raw || "{}");
      } catch {
        throw new OdooException("werkzeug.exceptions.BadRequest", "Invalid JSON data", 400);
      }
      if (typeof body !== "object" || body === null || Array.isArray(body))
        throw new OdooException("werkzeug.exceptions.BadRequest", "The body must be a JSON object", 400);
      const { context: _context, ...named } = body as Record<string, unknown>;
      send(200, await this.callModel(user, model, method, named, "json2"));
    } catch (error) {
      if (error instanceof OdooException) return fail(error);
      throw error;
    }
  }

  private versionInfo() {
    const info = [this.version, 0, 0, "final", 0, ""];
    return {
      server_version: `${this.version}.0`,
      server_version_info: info,
      server_serie: `${this.version}.0`,
      protocol_version: 1,
    };
  }

  private async callModel(
    user: OdooUser,
    model: string,
    method: string,
    params: Record<string, unknown>,
    flavour: "jsonrpc" | "json2",
  ): Promise<unknown> {
    this.calls.push(`${model}.${method}`);
    const allowed = (names: string[]) => {
      const unknown = Object.keys(params).filter((name) => !names.includes(name));
      if (unknown.length) throw typeError(`${method}() got an unexpected keyword argument '${unknown[0]}'`);
    };
    if (model === "res.users" && method === "context_get") {
      allowed([]);
      return { lang: "en_US", tz: "Europe/Prague", uid: user.id };
    }
    if (model === "res.users" && method === "search_read") {
      allowed(["domain", "fields", "offset", "limit", "order"]);
      const rows = this.users.map((each) => ({ id: each.id, login: each.login, name: each.login }));
      return this.filter(rows, params.domain, new Set(["id", "login", "name"])).map((row) =>
        this.pick(row, params.fields, new Set(["id", "login", "name"]), "res.users"),
      );
    }
    if (model === "ir.module.module") return this.moduleMethod(user, method, params, allowed);
    if (model === "project.task") return this.taskMethod(user, method, params, allowed, flavour);
    throw new OdooException("werkzeug.exceptions.NotFound", `The model '${model}' does not exist`, 404);
  }

  private moduleMethod(
    user: OdooUser,
    method: string,
    params: Record<string, unknown>,
    allowed: (names: string[]) => void,
  ): Promise<unknown> | unknown {
    if (method === "search_read") {
      allowed(["domain", "fields", "offset", "limit", "order"]);
      const rows = this.sort(
        this.filter(this.modules as unknown as Record<string, unknown>[], params.domain, MODULE_FIELDS),
        params.order,
        MODULE_FIELDS,
      );
      const limited = typeof params.limit === "number" ? rows.slice(0, params.limit) : rows;
      return limited.map((row) => this.pick(row, params.fields, MODULE_FIELDS, "ir.module.module"));
    }
    if (method === "button_immediate_install") {
      allowed(["ids"]);
      // @assert_log_admin_access
      if (!user.admin) throw accessDenied();
      if (this.cronLock) throw new OdooException("odoo.exceptions.UserError", CRON_LOCK_MESSAGE, 422);
      const ids = this.ids(params.ids);
      return new Promise((resolve) =>
        setTimeout(() => {
          for (const id of ids) {
            const module = this.modules.find((each) => each.id === id);
            if (!module) continue;
            for (const dependency of [module, ...this.modules.filter((each) => module.depends?.includes(each.name))]) {
              dependency.state = "installed";
              dependency.installed_version = dependency.latest_version;
            }
          }
          resolve({ type: "ir.actions.client", tag: "reload" });
        }, this.installDelayMs),
      );
    }
    throw new OdooException("AttributeError", `The method '${method}' does not exist on the model 'ir.module.module'`, 404);
  }

  private taskMethod(
    user: OdooUser,
    method: string,
    params: Record<string, unknown>,
    allowed: (names: string[]) => void,
    flavour: "jsonrpc" | "json2",
  ): unknown {
    if (method === "search_read") {
      allowed(["domain", "fields", "offset", "limit", "order"]);
      const rows = this.sort(
        this.filter([...this.tasks.values()] as unknown as Record<string, unknown>[], params.domain, TASK_FIELDS),
        params.order ?? "id",
        TASK_FIELDS,
      );
      const offset = typeof params.offset === "number" ? params.offset : 0;
      const page = rows.slice(offset, typeof params.limit === "number" ? offset + params.limit : undefined);
      return page.map((row) => this.pick(row, params.fields, TASK_FIELDS, "project.task"));
    }
    if (method === "create") {
      allowed(["vals_list"]);
      const single = flavour === "jsonrpc" && !Array.isArray(params.vals_list);
      const list = single ? [params.vals_list] : params.vals_list;
      if (!Array.isArray(list) || !list.every((vals) => typeof vals === "object" && vals !== null && !Array.isArray(vals))) {
        throw typeError("create() vals_list must be a list of dicts");
      }
      const ids = list.map((vals) => {
        const values = this.taskValues(vals as Record<string, unknown>);
        if (!values.name) throw new OdooException("odoo.exceptions.ValidationError", "The field 'Title' is required", 422);
        return this.addTask({ ...values, user_ids: values.user_ids ?? [user.id] } as OdooTask).id;
      });
      return single ? ids[0] : ids;
    }
    if (method === "write") {
      allowed(["ids", "vals"]);
      const ids = this.ids(params.ids);
      if (typeof params.vals !== "object" || params.vals === null) throw typeError("write() vals must be a dict");
      const values = this.taskValues(params.vals as Record<string, unknown>);
      const missing = ids.filter((id) => !this.tasks.has(id));
      if (missing.length) {
        throw new OdooException(
          "odoo.exceptions.MissingError",
          `Record does not exist or has been deleted.\n(Record: project.task(${missing.join(",")},), User: ${user.id})`,
          404,
        );
      }
      for (const id of ids) Object.assign(this.tasks.get(id)!, values, { write_date: now() });
      return true;
    }
    throw new OdooException("AttributeError", `The method '${method}' does not exist on the model 'project.task'`, 404);
  }

  /** A write/create's values, checked as the ORM would (field names, selection values, date formats, x2many commands). */
  private taskValues(vals: Record<string, unknown>): Partial<OdooTask> {
    const values: Partial<OdooTask> = {};
    for (const [field, value] of Object.entries(vals)) {
      if (!TASK_FIELDS.has(field) || field === "id" || field === "write_date")
        throw valueError(`Invalid field '${field}' on model 'project.task'`);
      if (field === "state" && !TASK_STATES.has(value as string))
        throw valueError(`Wrong value for project.task.state: '${String(value)}'`);
      if (field === "priority" && value !== "0" && value !== "1")
        throw valueError(`Wrong value for project.task.priority: '${String(value)}'`);
      if (
        field === "date_deadline" &&
        value !== false &&
        !(typeof value === "string" && /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(value))
      ) {
        throw valueError(`time data '${String(value)}' does not match format '%Y-%m-%d %H:%M:%S'`);
      }
      if (field === "project_id" && value !== false && !(typeof value === "number" && PROJECTS[value])) {
        throw new OdooException(
          "odoo.exceptions.MissingError",
          "Record does not exist or has been deleted.\n(Record: project.project)",
          404,
        );
      }
      if (field === "user_ids") {
        const commands = value as unknown[];
        const ok =
          Array.isArray(commands) &&
          commands.every(
            (command) => Array.isArray(command) && command[0] === 6 && command[1] === 0 && Array.isArray(command[2]),
          );
        if (!ok) throw valueError("user_ids: x2many values must be a list of commands such as [(6, 0, [ids])]");
        (values as Record<string, unknown>).user_ids = (commands.at(-1) as [number, number, number[]])[2];
        continue;
      }
      (values as Record<string, unknown>)[field] = value;
    }
    return values;
  }

  private ids(value: unknown): number[] {
    if (!Array.isArray(value) || !value.every((id) => Number.isInteger(id))) throw typeError("ids must be a list of integers");
    return value as number[];
  }

  /** Sorts by an `order` clause ("name", "id desc"); an unknown field is a ValueError, as in Odoo. */
  private sort(rows: Record<string, unknown>[], order: unknown, fields: Set<string>): Record<string, unknown>[] {
    if (order === undefined || order === null) return rows;
    const match = typeof order === "string" ? order.trim().match(/^([a-z_]+)(?: (asc|desc))?$/i) : null;
    if (!match || !fields.has(match[1]!)) throw valueError(`Invalid "order" specified (${String(order)})`);
    const field = match[1]!;
    const sign = match[2]?.toLowerCase() === "desc" ? -1 : 1;
    return [...rows].sort((a, b) => sign * (a[field]! < b[field]! ? -1 : a[field]! > b[field]! ? 1 : 0));
  }

  /** Applies a domain (a list of [field, operator, value] leaves, all ANDed). */
  private filter(rows: Record<string, unknown>[], domain: unknown, fields: Set<string>): Record<string, unknown>[] {
    if (domain === undefined) return rows;
    if (!Array.isArray(domain)) throw valueError("Invalid domain: must be a list");
    let result = rows;
    for (const leaf of domain) {
      if (!Array.isArray(leaf) || leaf.length !== 3) throw valueError(`Invalid leaf ${JSON.stringify(leaf)}`);
      const [field, operator, value] = leaf as [string, string, unknown];
      if (!fields.has(field)) throw valueError(`Invalid field ${field} in leaf ${JSON.stringify(leaf)}`);
      if (!OPERATORS.has(operator)) throw valueError(`Invalid leaf ${JSON.stringify(leaf)}`);
      if ((operator === "in" || operator === "not in") && !Array.isArray(value))
        throw valueError(`Invalid leaf ${JSON.stringify(leaf)}`);
      result = result.filter((row) => {
        const current = row[field];
        const matches = (candidate: unknown) => (Array.isArray(current) ? current.includes(candidate) : current === candidate);
        if (operator === "=") return matches(value);
        if (operator === "!=") return !matches(value);
        const any = (value as unknown[]).some(matches);
        return operator === "in" ? any : !any;
      });
    }
    return result;
  }

  /** A record as search_read answers it: the fields asked for (unknown ones a ValueError), many2one as [id, name]. */
  private pick(row: Record<string, unknown>, fields: unknown, known: Set<string>, model: string): Record<string, unknown> {
    const names = Array.isArray(fields) && fields.length ? (fields as string[]) : [...known];
    const record: Record<string, unknown> = { id: row.id };
    for (const name of names) {
      if (!known.has(name)) throw valueError(`Invalid field '${name}' on model '${model}'`);
      const value = row[name] ?? false;
      if (name === "project_id") record[name] = value ? [value, PROJECTS[value as number]] : false;
      else if (name === "stage_id") record[name] = value ? [value, STAGES[value as number]] : false;
      else record[name] = value;
    }
    return record;
  }
}

export async function startOdooServer(): Promise<OdooServer> {
  return new OdooServer().start();
}
