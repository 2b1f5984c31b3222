import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import ipaddr from "ipaddr.js";
import { z } from "zod";
import { MODULE_IDS } from "./modules/ids";

/**
 * Every setting Spolu reads from the environment, parsed once at start by one schema.
 * `.env.example` documents each variable; keep the two in step.
 */
const flag = z.stringbool({ truthy: ["true", "1", "yes", "on"], falsy: ["false", "0", "no", "off", ""] });
/** What goes out to addresses given by users or the operator (lib/net): each may be allowed private targets. */
export const OUTBOUND_PURPOSES = ["webhooks", "push", "connectors", "ai"] as const;
export type OutboundPurpose = (typeof OUTBOUND_PURPOSES)[number];

/** Which private (loopback, link-local, RFC 1918...) targets outgoing calls may reach; nothing by default. */
export interface PrivateTargets {
  /** Every purpose may reach every address. */
  all: boolean;
  /** These purposes may reach every address. */
  purposes: OutboundPurpose[];
  /** Every purpose may reach these addresses and ranges (CIDR, or one address). */
  ranges: string[];
}

const privateTargets = z
  .string()
  .default("false")
  .transform((value, ctx): PrivateTargets => {
    const asFlag = flag.safeParse(value.trim());
    if (asFlag.success) return { all: asFlag.data, purposes: [], ranges: [] };
    const targets: PrivateTargets = { all: false, purposes: [], ranges: [] };
    for (const entry of value.split(/[\s,]+/).filter(Boolean)) {
      if ((OUTBOUND_PURPOSES as readonly string[]).includes(entry)) targets.purposes.push(entry as OutboundPurpose);
      else if (ipaddr.isValidCIDR(entry)) targets.ranges.push(entry);
      else if (ipaddr.isValid(entry)) targets.ranges.push(`${entry}/${ipaddr.parse(entry).kind() === "ipv4" ? 32 : 128}`);
      else {
        ctx.addIssue({
          code: "custom",
          message: `must be true, false, or a list of ${OUTBOUND_PURPOSES.join(", ")} and addresses or CIDR ranges: ${entry} is none of these`,
        });
        return z.NEVER;
      }
    }
    return targets;
  });

/** A comma-separated list: each entry trimmed, empty ones dropped (unset: none). */
const commaList = z
  .string()
  .default("")
  .transform((list) =>
    list
      .split(",")
      .map((entry) => entry.trim())
      .filter(Boolean),
  );

/** DNS servers as `address` or `address:port` (IPv6 in brackets when a port follows). */
const dnsServers = z
  .string()
  .default("")
  .transform((list, ctx) => {
    const servers = list.split(/[\s,]+/).filter(Boolean);
    for (const server of servers) {
      const address = server.replace(/^\[(.*)\](:\d+)?$/, "$1").replace(/^([^:]+):\d+$/, "$1");
      if (!ipaddr.isValid(address)) {
        ctx.addIssue({ code: "custom", message: `must list IP addresses (with an optional :port): ${server} is not one` });
        return z.NEVER;
      }
    }
    return servers;
  });

const positiveInt = z.coerce
  .number({ error: "must be a whole number" })
  .int("must be a whole number")
  .positive("must be above 0");

export const configSchema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    HOST: z.string().min(1).default("0.0.0.0"),
    PORT: z.coerce
      .number({ error: "must be a port number (0 to 65535)" })
      .int("must be a port number (0 to 65535)")
      .min(0, "must be a port number (0 to 65535)")
      .max(65535, "must be a port number (0 to 65535)")
      .default(3000),
    APP_URL: z.url({ protocol: /^https?$/ }).optional(),
    DATA_DIR: z.string().min(1).default("./data"),
    /** The embedded database's page cache (PostgreSQL's shared_buffers), held in the process's memory. */
    EMBEDDED_DB_CACHE_MB: positiveInt.min(1).max(4096).default(32),
    DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }).optional(),
    DATABASE_POOL_MAX: positiveInt.max(1000).default(10),
    // PostgreSQL's time limits (lib/db/client.ts): how long a request waits for a pooled connection (or for a new
    // one to open) before it gets a 503, and how long one statement may run (the server cancels it; the client
    // gives up a second later, which also bounds a server that went silent).
    DATABASE_ACQUIRE_TIMEOUT_MS: positiveInt.max(60_000).default(5_000),
    DATABASE_STATEMENT_TIMEOUT_MS: positiveInt.max(600_000).default(5_000),
    /** Without Redis: the memory that holds the task lists' cached answers (each about 30 KB for 50 tasks). */
    TASK_LIST_CACHE_MB: positiveInt.max(4096).default(16),
    REDIS_URL: z.url({ protocol: /^rediss?$/ }).optional(),
    REDIS_PREFIX: z.string().max(64).default("spolu:"),
    // Redis's time limits (lib/redis/client.ts): one connection attempt, and one command's answer. A command's
    // timer runs on the event loop: after a stall of the process longer than the limit (a busy machine), answers
    // that did arrive count as late, so the limit leaves room for that (1 s dropped the connection in CI runs).
    REDIS_CONNECT_TIMEOUT_MS: positiveInt.max(60_000).default(2_000),
    REDIS_COMMAND_TIMEOUT_MS: positiveInt.max(60_000).default(2_000),
    JWT_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
    JWT_TTL_SECONDS: positiveInt.max(90 * 24 * 3600).default(7 * 24 * 3600),
    ADMIN_EMAILS: commaList.transform((emails) => emails.map((email) => email.toLowerCase())),
    // Origins besides APP_URL's whose pages may send cookie-authenticated changes (lib/api/same-origin.ts), e.g. a
    // second public address of the same deployment; comma-separated.
    TRUSTED_ORIGINS: commaList.pipe(z.array(z.url({ protocol: /^https?$/, message: "must be a list of http(s) origins" }))),
    TRUST_PROXY: z
      .string()
      .default("false")
      .transform((value, ctx) => {
        if (/^\d+$/.test(value)) return Number(value);
        const parsed = flag.safeParse(value);
        if (parsed.success) return parsed.data ? 1 : 0;
        ctx.addIssue({ code: "custom", message: "must be true, false or a number of proxy hops" });
        return z.NEVER;
      }),
    RATE_LIMIT_POINTS: positiveInt.default(600),
    RATE_LIMIT_WINDOW_SECONDS: positiveInt.default(60),
    AUTH_RATE_LIMIT_POINTS: positiveInt.default(30),
    AUTH_RATE_LIMIT_WINDOW_SECONDS: positiveInt.default(300),
    // Failed password sign-ins (docs/security.md): per account and address a short lockout, then a longer one;
    // per address and per account (any address) an hourly cap. Successful sign-ins are never counted.
    LOGIN_FAILURE_LIMIT: positiveInt.default(5),
    LOGIN_FAILURE_WINDOW_SECONDS: positiveInt.default(15 * 60),
    LOGIN_LOCKOUT_FAILURES: positiveInt.default(20),
    LOGIN_LOCKOUT_SECONDS: positiveInt.default(24 * 3600),
    LOGIN_ADDRESS_FAILURES_PER_HOUR: positiveInt.default(100),
    LOGIN_ACCOUNT_FAILURES_PER_HOUR: positiveInt.default(50),
    // Password-reset requests (docs/password-reset.md): per client address and per email address, per hour; and
    // how many verification emails a signed-in user may ask for again per hour.
    PASSWORD_RESET_ADDRESS_PER_HOUR: positiveInt.default(20),
    PASSWORD_RESET_EMAIL_PER_HOUR: positiveInt.default(3),
    VERIFY_EMAIL_RESEND_PER_HOUR: positiveInt.default(3),
    // Anonymous client error reports (POST /errors/report), per address.
    ERROR_REPORT_LIMIT_POINTS: positiveInt.default(10),
    ERROR_REPORT_LIMIT_WINDOW_SECONDS: positiveInt.default(600),
    BODY_LIMIT_BYTES: positiveInt.default(1024 * 1024),
    ERROR_LOG_RETENTION_DAYS: positiveInt.default(30),
    SHUTDOWN_TIMEOUT_MS: positiveInt.default(10_000),
    SERVE_PAGES: flag.default(true),
    RUN_JOBS: flag.default(true),
    RUN_EVENT_CONSUMERS: flag.default(true),
    // The event consumers (lib/events/consumers.ts): notifications, awards, webhooks, socket pushes. On by default in
    // every process, whatever RUN_JOBS says (a process without jobs still has its changes' side effects); each
    // consumer runs in one process at a time. How often the one holding
    // their lease looks for events other processes committed, and how long a lease outlives a process that died.
    EVENT_CONSUMER_POLL_MS: positiveInt.min(50).max(60_000).default(500),
    EVENT_CONSUMER_LEASE_MS: positiveInt.min(1000).max(600_000).default(10_000),
    LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
    /** One `info` line per request (method, route pattern, status, duration, request id). */
    ACCESS_LOG: flag.default(true),
    // Web push: a VAPID key pair (base64url, as `web-push generate-vapid-keys` prints it); generated and kept in
    // the database on first start when unset. The subject is a mailto: or https: contact for push services.
    VAPID_PUBLIC_KEY: z.string().min(1).optional(),
    VAPID_PRIVATE_KEY: z.string().min(1).optional(),
    VAPID_SUBJECT: z
      .string()
      .regex(/^(mailto:|https:)/, "must start with mailto: or https:")
      .optional(),
    // Email: `log` (the default: written to the log, nothing sent), `smtp` (SMTP_URL) or `resend` (RESEND_API_KEY).
    EMAIL_TRANSPORT: z.enum(["log", "smtp", "resend"]).default("log"),
    EMAIL_FROM: z.string().min(3).default("Spolu <spolu@localhost>"),
    SMTP_URL: z.url({ protocol: /^smtps?$/ }).optional(),
    RESEND_API_KEY: z.string().min(1).optional(),
    /** Resend's API address; only tests and proxies change it. */
    RESEND_BASE_URL: z.url({ protocol: /^https?$/ }).default("https://api.resend.com"),
    // The AI assistant: any OpenAI-compatible chat-completions endpoint (OpenAI, a local Ollama, vLLM or llama.cpp
    // server). Without AI_BASE_URL the built-in assistant answers from the user's own data.
    AI_BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
    AI_API_KEY: z.string().min(1).optional(),
    AI_MODEL: z.string().min(1).default("gpt-4o-mini"),
    AI_TIMEOUT_MS: positiveInt.max(300_000).default(30_000),
    /** Requests to the AI endpoint per user and UTC day; the built-in assistant is not counted. */
    AI_DAILY_REQUESTS: positiveInt.default(200),
    /** The model for `POST /audio/transcriptions` (media transcription). */
    AI_TRANSCRIPTION_MODEL: z.string().min(1).default("whisper-1"),
    // Media attached to tasks (lib/media): where the files go, and the largest file of each kind (decoded bytes).
    MEDIA_STORAGE: z.enum(["local"]).default("local"),
    /** Defaults to $DATA_DIR/media. */
    MEDIA_DIR: z.string().min(1).optional(),
    MEDIA_MAX_TEXT_BYTES: positiveInt.max(512 * 1024 * 1024).default(1024 * 1024),
    MEDIA_MAX_AUDIO_BYTES: positiveInt.max(512 * 1024 * 1024).default(20 * 1024 * 1024),
    MEDIA_MAX_PHOTO_BYTES: positiveInt.max(512 * 1024 * 1024).default(10 * 1024 * 1024),
    MEDIA_MAX_VIDEO_BYTES: positiveInt.max(512 * 1024 * 1024).default(50 * 1024 * 1024),
    // Feature modules (lib/modules/registry.ts) that start switched off; administrators can switch them at run time.
    MODULES_DISABLED: commaList.pipe(z.array(z.enum(MODULE_IDS))),
    // Connectors (lib/connectors): the key their credentials are encrypted with (default: derived from JWT_SECRET),
    // each outgoing call's time limit, and whether they may reach private addresses (an ERP or POHODA on the LAN;
    // the same as listing `connectors` in ALLOW_PRIVATE_NETWORK_TARGETS, kept for existing deployments).
    CONNECTOR_SECRET_KEY: z.string().min(32, "must be at least 32 characters").optional(),
    CONNECTOR_TIMEOUT_MS: positiveInt.max(600_000).default(30_000),
    CONNECTOR_ALLOW_PRIVATE_NETWORK: flag.default(false),
    /** How often each process reads the administrators' module switches (Redis tells the others at once as well). */
    MODULE_REFRESH_MS: positiveInt.min(100).max(60_000).default(2_000),
    // Outgoing calls (webhooks, push, connectors, the AI endpoint: lib/net) refuse private, loopback, link-local and
    // other special addresses unless allowed here: `true` (everything), or a list of purposes (`webhooks`, `push`,
    // `connectors`, `ai`: that one may reach any address) and addresses or CIDR ranges (every purpose may reach those).
    ALLOW_PRIVATE_NETWORK_TARGETS: privateTargets,
    /** The DNS servers outgoing calls resolve host names with (A and AAAA); unset: the system's resolver. */
    OUTBOUND_DNS_SERVERS: dnsServers,
    /** How long an outgoing call may take to connect (its whole exchange has the purpose's own limit). */
    OUTBOUND_CONNECT_TIMEOUT_MS: positiveInt.max(60_000).default(10_000),
    WEBHOOK_TIMEOUT_MS: positiveInt.max(60_000).default(10_000),
    // GET /metrics (lib/metrics/endpoint.ts): the bearer token Prometheus sends; unset, the path answers 404.
    METRICS_TOKEN: z.string().min(16, "must be at least 16 characters").optional(),
    // The deploy webhook (lib/deploy): GitHub's shared secret (unset: the route answers 404), the command line run
    // for each accepted push (split into words, started without a shell), its time limit, and the one ref deployed
    // (unset: every push).
    DEPLOY_WEBHOOK_SECRET: z.string().min(16, "must be at least 16 characters").optional(),
    DEPLOY_COMMAND: z.string().trim().min(1).optional(),
    DEPLOY_TIMEOUT_MS: positiveInt.max(6 * 3600 * 1000).default(15 * 60 * 1000),
    DEPLOY_REF: z
      .string()
      .regex(/^refs\/\S+$/, "must be a full ref such as refs/heads/main")
      .optional(),
    // WebAuthn: the relying party. The id defaults to APP_URL's host name, the origins to APP_URL's origin
    // (else http://localhost:PORT); list several origins comma-separated (for example a mobile app's).
    WEBAUTHN_RP_ID: z.string().min(1).optional(),
    WEBAUTHN_RP_NAME: z.string().min(1).default("Spolu"),
    WEBAUTHN_ORIGINS: commaList,
    // OAuth / OpenID Connect providers: each is offered when its client id and secret are set. The issuer and
    // base URLs only change for tests and proxies.
    GOOGLE_CLIENT_ID: z.string().min(1).optional(),
    GOOGLE_CLIENT_SECRET: z.string().min(1).optional(),
    GOOGLE_ISSUER: z.url().default("https://accounts.google.com"),
    MICROSOFT_CLIENT_ID: z.string().min(1).optional(),
    MICROSOFT_CLIENT_SECRET: z.string().min(1).optional(),
    /** `common`, `organizations`, `consumers` or a tenant id. */
    MICROSOFT_TENANT: z.string().min(1).default("common"),
    /** Defaults to https://login.microsoftonline.com/<MICROSOFT_TENANT>/v2.0. */
    MICROSOFT_ISSUER: z.url().optional(),
    GITHUB_CLIENT_ID: z.string().min(1).optional(),
    GITHUB_CLIENT_SECRET: z.string().min(1).optional(),
    GITHUB_BASE_URL: z.url().default("https://github.com"),
    GITHUB_API_URL: z.url().default("https://api.github.com"),
  })
  .superRefine((env, ctx) => {
    if ((env.VAPID_PUBLIC_KEY === undefined) !== (env.VAPID_PRIVATE_KEY === undefined)) {
      ctx.addIssue({
        code: "custom",
        path: ["VAPID_PRIVATE_KEY"],
        message: "VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY go together: set both or neither",
      });
    }
    if (env.EMAIL_TRANSPORT === "smtp" && !env.SMTP_URL) {
      ctx.addIssue({ code: "custom", path: ["SMTP_URL"], message: "is required when EMAIL_TRANSPORT is smtp" });
    }
    if (env.EMAIL_TRANSPORT === "resend" && !env.RESEND_API_KEY) {
      ctx.addIssue({ code: "custom", path: ["RESEND_API_KEY"], message: "is required when EMAIL_TRANSPORT is resend" });
    }
  });

export type Config = Omit<z.output<typeof configSchema>, "JWT_SECRET"> & {
  JWT_SECRET: string;
  /** The embedded PGlite database is used when DATABASE_URL is unset. */
  embedded: boolean;
};

export class ConfigError extends Error {}

/** The variables to parse: process.env, or a test's own. */
export type Environment = Record<string, string | undefined>;

/**
 * What the process is started for. `serve` signs tokens, so with DATABASE_URL every process needs the same
 * JWT_SECRET; `migrate` (`npm run db:migrate`) signs nothing and runs without it.
 */
export type ConfigPurpose = "serve" | "migrate";

/** Parses the environment; throws a ConfigError whose message names every bad variable. */
export function parseConfig(
  env: Environment,
  purpose: ConfigPurpose = "serve",
): Omit<Config, "JWT_SECRET"> & { JWT_SECRET?: string } {
  // An empty variable (`JWT_SECRET=` in a .env file) means "not set".
  const given = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ""));
  const result = configSchema.safeParse(given);
  const lines = result.success ? [] : result.error.issues.map((issue) => `  ${issue.path.join(".")}: ${issue.message}`);
  if (purpose === "serve" && given.DATABASE_URL && !given.JWT_SECRET) {
    lines.push("  JWT_SECRET: is required when DATABASE_URL is set, so that every process signs tokens with the same key");
  }
  if (!result.success || lines.length > 0) throw new ConfigError(`Invalid configuration:\n${lines.join("\n")}`);
  return { ...result.data, embedded: !result.data.DATABASE_URL };
}

/** In embedded mode an unset JWT_SECRET is generated on first start and kept in the data directory. */
function embeddedSecret(dataDir: string): string {
  const file = path.join(dataDir, "jwt-secret");
  try {
    return readFileSync(file, "utf8").trim();
  } catch {
    mkdirSync(dataDir, { recursive: true });
    const secret = randomBytes(48).toString("base64url");
    writeFileSync(file, secret, { mode: 0o600, flag: "wx" });
    return secret;
  }
}

const CONFIG = Symbol.for("spolu.config");
type Holder = { [CONFIG]?: Config };

/**
 * Reads `.env` from the directory the process runs in, when there is one: its variables join the environment,
 * where a variable already set wins. Read here rather than by `node --env-file-if-exists`, which prints a line
 * that is not JSON when the file is missing.
 */
export function readDotEnvFile(file = path.resolve(/*turbopackIgnore: true*/ ".env")): void {
  if (existsSync(/*turbopackIgnore: true*/ file)) process.loadEnvFile(file);
}

/**
 * Loads and keeps the configuration for this process (shared by server.ts and Next's bundle). For `migrate`
 * an unset JWT_SECRET stays unset (nothing is generated) and reading it throws: migrating signs nothing.
 */
export function loadConfig(env: Environment = process.env, purpose: ConfigPurpose = "serve"): Config {
  const { JWT_SECRET, ...parsed } = parseConfig(env, purpose);
  const config = parsed as Config;
  if (JWT_SECRET !== undefined || purpose === "serve") {
    config.JWT_SECRET = JWT_SECRET ?? embeddedSecret(path.resolve(parsed.DATA_DIR));
  } else {
    Object.defineProperty(config, "JWT_SECRET", {
      enumerable: true,
      get() {
        throw new ConfigError("JWT_SECRET is not set: this process was started to migrate, not to sign tokens");
      },
    });
  }
  (globalThis as Holder)[CONFIG] = config;
  return config;
}

/** The process configuration, loaded from process.env on first use. */
export function config(): Config {
  return (globalThis as Holder)[CONFIG] ?? loadConfig();
}
