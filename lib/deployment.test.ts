/**
 * The deployment files agree with the code: compose.yaml, the Dockerfile, deploy/Caddyfile and .dockerignore
 * against the configuration schema (lib/config.ts), the health route and `npm start`. Containers cannot run on
 * CI's machines (scripts/chroot-check.ts runs the Dockerfile's steps instead); this is what can be read.
 */
import { readFileSync } from "node:fs";
import dockerignore from "@balena/dockerignore";
import { describe, expect, test } from "vitest";
import { parse } from "yaml";
import { parseDockerfile, stageEnvironment, stageUser } from "../scripts/dockerfile";
import { toApiPath } from "./api/paths";
import { configSchema, parseConfig, type ConfigPurpose } from "./config";
import { healthRoutes } from "./health/routes";

const read = (file: string) => readFileSync(file, "utf8");

/** Compose's variable interpolation: $$, $NAME, ${NAME}, ${NAME:-default}, ${NAME-default}, ${NAME:?error}, ${NAME?error}. */
function interpolate(text: string, variables: Record<string, string>): string {
  return text.replace(/\$(\$|[A-Za-z_]\w*|\{([A-Za-z_]\w*)(?:(:?[-?])([^}]*))?\})/g, (whole, simple, name, operator, operand) => {
    if (simple === "$") return "$";
    const key: string = name ?? simple;
    const value = variables[key];
    const unset = operator?.startsWith(":") ? !value : value === undefined;
    if (operator?.endsWith("?") && unset) throw new Error(`${key}: ${operand}`);
    if (operator?.endsWith("-") && unset) return operand;
    return value ?? "";
  });
}

interface Service {
  image?: string;
  build?: string;
  command?: string[];
  environment?: Record<string, string>;
  expose?: string[];
  ports?: string[];
  volumes?: string[];
  healthcheck?: { test: string[] };
  depends_on?: Record<string, { condition: string }>;
  restart?: string;
  stop_grace_period?: string;
}

const COMPOSE_INPUT = { JWT_SECRET: "s".repeat(48), POSTGRES_PASSWORD: "0123456789abcdef" };
const compose = parse(interpolate(read("compose.yaml"), COMPOSE_INPUT), { merge: true }) as {
  services: Record<string, Service>;
  volumes: Record<string, unknown>;
};
const stages = parseDockerfile(read("Dockerfile"));
const image = stages.at(-1)!;
const imageEnvironment = stageEnvironment(image);
/** Variables the image sets for Node.js or Next.js, not for Spolu. */
const NOT_SPOLU = new Set(["NEXT_TELEMETRY_DISABLED"]);

/** The services that run the image built from the Dockerfile. */
const spoluServices = Object.entries(compose.services).filter(([, service]) => service.image === "spolu:local");
const migrates = (service: Service) => service.command?.join(" ").includes("lib/db/migrate.ts") ?? false;
const servers = spoluServices.filter(([, service]) => !migrates(service));
/** What a Spolu container sees: the image's ENV, then the service's environment. */
const environmentOf = (service: Service) => ({ ...imageEnvironment, ...service.environment });
/** The path and port a health check command fetches (`fetch('http://127.0.0.1:3000/readyz')`). */
function fetched(command: string[]): { port: string; path: string } {
  const match = /http:\/\/127\.0\.0\.1:(?:(\d+)|' \+ process\.env\.PORT \+ ')(\/[\w/-]*)/.exec(command.join(" "));
  expect(match, `no health check URL in ${command.join(" ")}`).not.toBeNull();
  return { port: match![1] ?? "$PORT", path: match![2]! };
}

describe("compose.yaml", () => {
  test("two Spolu servers and a migration run on the image, with PostgreSQL, Redis and a proxy", () => {
    expect(servers.map(([name]) => name)).toEqual(["spolu-1", "spolu-2"]);
    expect(spoluServices.filter(([, service]) => migrates(service))).toHaveLength(1);
    expect(spoluServices.every(([, service]) => service.build === ".")).toBe(true);
    expect(compose.services.postgres?.image).toMatch(/^postgres:/);
    expect(compose.services.redis?.image).toMatch(/^redis:/);
    expect(compose.services.proxy?.image).toMatch(/^caddy:/);
  });

  test("every variable set for Spolu is in the configuration schema and parses", () => {
    const known = new Set(configSchema.keyof().options as string[]);
    for (const [name, service] of spoluServices) {
      const environment = environmentOf(service);
      const unknown = Object.keys(environment).filter((variable) => !known.has(variable) && !NOT_SPOLU.has(variable));
      expect(unknown, `${name} sets variables Spolu does not read`).toEqual([]);
      const purpose: ConfigPurpose = migrates(service) ? "migrate" : "serve";
      expect(() => parseConfig(environment, purpose), name).not.toThrow();
    }
  });

  test("the migration needs no JWT_SECRET; the servers do, and compose refuses to start without it", () => {
    const [, migrate] = spoluServices.find(([, service]) => migrates(service))!;
    expect(migrate.environment).not.toHaveProperty("JWT_SECRET");
    expect(() => parseConfig(environmentOf(migrate), "serve")).toThrow(/JWT_SECRET: is required/);
    expect(() => interpolate(read("compose.yaml"), { POSTGRES_PASSWORD: "0123456789abcdef" })).toThrow(/^JWT_SECRET: /);
    expect(() => interpolate(read("compose.yaml"), { JWT_SECRET: "s".repeat(48) })).toThrow(/^POSTGRES_PASSWORD: /);
  });

  test("the servers share JWT_SECRET, DATABASE_URL, REDIS_URL, REDIS_PREFIX and the media volume", () => {
    const [first, ...others] = servers.map(([, service]) => service);
    const shared = ["JWT_SECRET", "DATABASE_URL", "REDIS_URL", "REDIS_PREFIX", "MEDIA_DIR"] as const;
    for (const variable of shared) expect(environmentOf(first!)[variable], variable).toBeTruthy();
    for (const other of others) {
      for (const variable of shared) expect(environmentOf(other)[variable], variable).toBe(environmentOf(first!)[variable]);
    }
    const [, migrate] = spoluServices.find(([, service]) => migrates(service))!;
    expect(environmentOf(migrate).DATABASE_URL).toBe(environmentOf(first!).DATABASE_URL);

    const mediaDir = environmentOf(first!).MEDIA_DIR;
    for (const [name, service] of servers) {
      const media = service.volumes?.map((volume) => volume.split(":")).find(([, target]) => target === mediaDir);
      expect(media, `${name} mounts no volume at MEDIA_DIR ${mediaDir}`).toBeDefined();
      expect(Object.keys(compose.volumes)).toContain(media![0]);
      expect(media![0]).toBe(servers[0]![1].volumes!.find((volume) => volume.endsWith(`:${mediaDir}`))!.split(":")[0]);
    }
  });

  test("the servers listen on the port that EXPOSE, expose, the health checks and the proxy use", () => {
    const ports = new Set(servers.map(([, service]) => parseConfig(environmentOf(service)).PORT));
    expect([...ports]).toEqual([3000]);
    expect(image.exposed).toEqual([3000]);
    const caddy = read("deploy/Caddyfile");
    const upstreams = /reverse_proxy\s+([^{]+)\{/.exec(caddy)![1]!.trim().split(/\s+/);
    expect(upstreams).toEqual(servers.map(([name]) => `${name}:3000`));
    for (const [name, service] of servers) {
      expect(service.expose, name).toEqual(["3000"]);
      expect(service.ports, `${name} is reached through the proxy only`).toBeUndefined();
      expect(fetched(service.healthcheck!.test).port, name).toBe("3000");
    }
    expect(fetched(image.healthCheck!.command).port).toBe("$PORT");
    expect(compose.services.proxy!.ports).toEqual(["8080:80"]);
  });

  test("every health check asks a path the server answers", () => {
    const paths = [
      fetched(image.healthCheck!.command).path,
      ...servers.map(([, service]) => fetched(service.healthcheck!.test).path),
      /health_uri\s+(\S+)/.exec(read("deploy/Caddyfile"))![1]!,
    ];
    for (const path of paths) {
      expect(path).toBe("/readyz");
      expect(toApiPath(path), `${path} is not handed to the API`).toBe(`/api/v1${path}`);
      expect(healthRoutes.routes.some((route) => route.method === "GET" && route.path === path)).toBe(true);
    }
  });

  test("each depends_on condition names a service that can meet it", () => {
    for (const [name, service] of Object.entries(compose.services)) {
      for (const [dependency, { condition }] of Object.entries(service.depends_on ?? {})) {
        const target = compose.services[dependency];
        expect(target, `${name} depends on ${dependency}`).toBeDefined();
        if (condition === "service_healthy") expect(target!.healthcheck, `${dependency} has no health check`).toBeDefined();
        else expect(condition, `${name} → ${dependency}`).toBe("service_completed_successfully");
        if (condition === "service_completed_successfully") expect(target!.restart ?? "no").toBe("no");
      }
    }
    for (const [name, service] of servers) {
      expect(Object.keys(service.depends_on ?? {}).sort(), name).toEqual(["migrate", "postgres", "redis"]);
    }
    expect(Object.keys(compose.services.proxy!.depends_on ?? {})).toEqual(servers.map(([name]) => name));
  });

  test("a stop waits longer than the server's own drain (SHUTDOWN_TIMEOUT_MS)", () => {
    for (const [name, service] of servers) {
      const grace = Number(/^(\d+)s$/.exec(service.stop_grace_period ?? "10s")![1]) * 1000;
      expect(grace, name).toBeGreaterThan(parseConfig(environmentOf(service)).SHUTDOWN_TIMEOUT_MS);
    }
  });
});

describe("Dockerfile", () => {
  test("the image runs `npm start`'s command as a user other than root, with its data in a volume", () => {
    const user = stageUser(image);
    expect(user).not.toMatch(/^(root|0)(:|$)/);
    const start = JSON.parse(read("package.json")).scripts.start as string;
    // npm start: NODE_ENV=production node <the rest>; the image sets NODE_ENV itself (and has no .env: its
    // environment is the configuration).
    const [, startArgs] = /^NODE_ENV=production (node .*)$/.exec(start)!;
    expect(image.command).toEqual(startArgs!.split(" "));
    expect(imageEnvironment.NODE_ENV).toBe("production");
    const config = parseConfig(imageEnvironment);
    expect(image.volumes).toEqual([config.DATA_DIR]);
    expect(config.MEDIA_DIR?.startsWith(`${config.DATA_DIR}/`)).toBe(true);
  });

  test(".dockerignore keeps settings, data and the checkout's builds out of the build context, and the source in", () => {
    const ignored = dockerignore({ ignorecase: false }).add(read(".dockerignore"));
    for (const file of [
      ".env",
      ".env.local",
      "data/pglite/PG_VERSION",
      "node_modules/next/package.json",
      ".next/BUILD_ID",
      ".git/HEAD",
    ]) {
      expect(ignored.ignores(file), file).toBe(true);
    }
    for (const file of [
      "package.json",
      "package-lock.json",
      "server.ts",
      "server/api.ts",
      "lib/config.ts",
      "app/layout.tsx",
      "db/migrations/meta/_journal.json",
    ]) {
      expect(ignored.ignores(file), file).toBe(false);
    }
    const fromContext = stages.flatMap((stage) => stage.steps).filter((step) => step.kind === "copy" && !step.from);
    for (const step of fromContext) {
      for (const source of step.kind === "copy" ? step.sources : []) {
        if (source !== ".") expect(ignored.ignores(source), source).toBe(false);
      }
    }
  });
});
