/**
 * The Dockerfile as data: its stages and, in each, the steps a builder runs, read with dockerfile-ast (the parser
 * of the Dockerfile language server). scripts/chroot-check.ts runs them in a chroot; lib/deployment.test.ts
 * checks them against the configuration schema. Only the instructions Spolu's Dockerfile uses are understood;
 * any other stops the reader with its line, so that a new one is taught here instead of silently skipped.
 */
import { DockerfileParser, type Instruction } from "dockerfile-ast";

export type Step =
  | { kind: "run"; line: number; command: string; cacheMounts: CacheMount[] }
  | { kind: "copy"; line: number; sources: string[]; destination: string; from?: string; chown?: string }
  | { kind: "workdir"; line: number; path: string }
  | { kind: "user"; line: number; user: string }
  | { kind: "env"; line: number; values: Record<string, string> };

/** `RUN --mount=type=cache,target=…`: a directory kept between builds (npm's download cache). */
export interface CacheMount {
  target: string;
  uid: number;
  gid: number;
}

export interface HealthCheck {
  /** Exec form (`CMD ["node", …]`) as is; shell form as `/bin/sh -c …`. */
  command: string[];
  intervalSeconds: number;
  timeoutSeconds: number;
  startPeriodSeconds: number;
  retries: number;
}

export interface Stage {
  name?: string;
  /** The base image, or the name of an earlier stage. */
  from: string;
  steps: Step[];
  volumes: string[];
  exposed: number[];
  healthCheck?: HealthCheck;
  /** What the container runs (exec or shell form, as for the health check). */
  command?: string[];
}

export class DockerfileError extends Error {}

function fail(instruction: Instruction, message: string): never {
  throw new DockerfileError(`Dockerfile line ${instruction.getRange().start.line + 1} (${instruction.getKeyword()}): ${message}`);
}

/** Instructions whose arguments the reader takes literally: a `$` would need a builder's variable expansion. */
function literal(instruction: Instruction, text: string): string {
  if (text.includes("$")) fail(instruction, "variables are not supported here");
  return text;
}

interface FlagLike {
  getName(): string;
  getValue(): string | null;
  getOptions(): { getName(): string; getValue(): string | null }[];
}

function flagsOf(instruction: Instruction): FlagLike[] {
  const withFlags = instruction as Instruction & { getFlags?: () => FlagLike[] };
  return withFlags.getFlags ? withFlags.getFlags() : [];
}

function onlyFlags(instruction: Instruction, allowed: string[]): Map<string, FlagLike> {
  const flags = new Map<string, FlagLike>();
  for (const flag of flagsOf(instruction)) {
    if (!allowed.includes(flag.getName())) fail(instruction, `the flag --${flag.getName()} is not supported`);
    flags.set(flag.getName(), flag);
  }
  return flags;
}

/** `CMD ["a", "b"]` (a JSON array) or `CMD a b` (a shell command). */
function commandOf(instruction: Instruction, text: string): string[] {
  const trimmed = text.trim();
  if (!trimmed.startsWith("[")) return ["/bin/sh", "-c", trimmed];
  let parsed: unknown;
  try {
    parsed = JSON.parse(trimmed);
  } catch {
    fail(instruction, "the exec form must be a JSON array of strings");
  }
  if (!Array.isArray(parsed) || parsed.length === 0 || !parsed.every((part) => typeof part === "string")) {
    fail(instruction, "the exec form must be a non-empty JSON array of strings");
  }
  return parsed;
}

/** `30s`, `1m30s`, `500ms` → seconds, as Docker's duration flags read them. */
export function durationSeconds(value: string): number {
  const parts = [...value.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)];
  if (parts.length === 0 || parts.map((part) => part[0]).join("") !== value) {
    throw new DockerfileError(`"${value}" is not a duration such as 30s or 1m30s`);
  }
  const unit = { ms: 0.001, s: 1, m: 60, h: 3600 } as const;
  return parts.reduce((sum, [, amount, suffix]) => sum + Number(amount) * unit[suffix as keyof typeof unit], 0);
}

function healthCheckOf(instruction: Instruction): HealthCheck {
  const flags = onlyFlags(instruction, ["interval", "timeout", "start-period", "retries"]);
  const content = instruction.getArgumentsContent() ?? "";
  const match = /^CMD\s+([\s\S]+)$/.exec(content.trim());
  if (!match) fail(instruction, "only HEALTHCHECK [options] CMD … is supported");
  const seconds = (name: string, fallback: number) => {
    const value = flags.get(name)?.getValue();
    return value ? durationSeconds(value) : fallback;
  };
  // Docker's defaults: every 30 s, 30 s to answer, no start period, 3 failures in a row.
  return {
    command: commandOf(instruction, match[1]!),
    intervalSeconds: seconds("interval", 30),
    timeoutSeconds: seconds("timeout", 30),
    startPeriodSeconds: seconds("start-period", 0),
    retries: Number(flags.get("retries")?.getValue() ?? 3),
  };
}

function cacheMountOf(instruction: Instruction, flag: FlagLike): CacheMount {
  const options = new Map(flag.getOptions().map((option) => [option.getName(), option.getValue() ?? ""]));
  if (options.get("type") !== "cache" || !options.get("target")) {
    fail(instruction, "only --mount=type=cache,target=… is supported");
  }
  return {
    target: literal(instruction, options.get("target")!),
    uid: Number(options.get("uid") ?? 0),
    gid: Number(options.get("gid") ?? 0),
  };
}

function stepOf(instruction: Instruction, line: number): Step {
  const keyword = instruction.getKeyword();
  const args = instruction.getArguments().map((argument) => argument.getValue());
  switch (keyword) {
    case "RUN": {
      const flags = flagsOf(instruction);
      const mounts = flags.map((flag) =>
        flag.getName() === "mount" ? cacheMountOf(instruction, flag) : fail(instruction, `--${flag.getName()} is not supported`),
      );
      const command = instruction.getArgumentsContent() ?? "";
      if (command.trim().startsWith("[")) fail(instruction, "write RUN in shell form");
      return { kind: "run", line, command, cacheMounts: mounts };
    }
    case "COPY": {
      const flags = onlyFlags(instruction, ["from", "chown"]);
      if (args.length < 2) fail(instruction, "COPY needs a source and a destination");
      return {
        kind: "copy",
        line,
        sources: args.slice(0, -1).map((source) => literal(instruction, source)),
        destination: literal(instruction, args.at(-1)!),
        from: flags.get("from")?.getValue() ?? undefined,
        chown: flags.get("chown")?.getValue() ?? undefined,
      };
    }
    case "WORKDIR":
      return { kind: "workdir", line, path: literal(instruction, args.join(" ")) };
    case "USER":
      return { kind: "user", line, user: literal(instruction, args.join(" ")) };
    case "ENV": {
      const properties = (
        instruction as Instruction & { getProperties(): { getName(): string; getUnescapedValue(): string | null }[] }
      )
        .getProperties()
        .map((property) => [property.getName(), literal(instruction, property.getUnescapedValue() ?? "")] as const);
      return { kind: "env", line, values: Object.fromEntries(properties) };
    }
    default:
      fail(instruction, "not supported");
  }
}

/** Reads a Dockerfile's text into its stages. */
export function parseDockerfile(text: string): Stage[] {
  const stages: Stage[] = [];
  for (const instruction of DockerfileParser.parse(text).getInstructions()) {
    const keyword = instruction.getKeyword();
    const line = instruction.getRange().start.line + 1;
    const args = instruction.getArguments().map((argument) => argument.getValue());
    if (keyword === "FROM") {
      onlyFlags(instruction, []);
      if (!(args.length === 1 || (args.length === 3 && args[1]!.toUpperCase() === "AS"))) {
        fail(instruction, "expected FROM image [AS name]");
      }
      stages.push({ from: literal(instruction, args[0]!), name: args[2], steps: [], volumes: [], exposed: [] });
      continue;
    }
    const stage = stages.at(-1) ?? fail(instruction, "comes before the first FROM");
    switch (keyword) {
      case "VOLUME":
        stage.volumes.push(...commandOfVolume(instruction));
        break;
      case "EXPOSE":
        stage.exposed.push(...args.map((port) => Number(literal(instruction, port.replace(/\/tcp$/, "")))));
        break;
      case "HEALTHCHECK":
        stage.healthCheck = healthCheckOf(instruction);
        break;
      case "CMD":
        stage.command = commandOf(instruction, instruction.getArgumentsContent() ?? "");
        break;
      default:
        stage.steps.push(stepOf(instruction, line));
    }
  }
  if (stages.length === 0) throw new DockerfileError("the Dockerfile has no FROM");
  return stages;
}

function commandOfVolume(instruction: Instruction): string[] {
  const content = (instruction.getArgumentsContent() ?? "").trim();
  const paths = content.startsWith("[") ? commandOf(instruction, content) : content.split(/\s+/);
  return paths.map((volume) => literal(instruction, volume));
}

/** The environment a stage's steps and command see: every ENV up to and including the last. */
export function stageEnvironment(stage: Stage): Record<string, string> {
  return Object.assign({}, ...stage.steps.filter((step) => step.kind === "env").map((step) => step.values));
}

/** The user the stage's command runs as: its last USER (root when there is none). */
export function stageUser(stage: Stage): string {
  return stage.steps.filter((step) => step.kind === "user").at(-1)?.user ?? "root";
}
