/**
 * CI's stand-in for `docker build` and `docker run` (containers cannot run on CI's machines: every OCI runtime's
 * rlimit calls are refused, and no base image can be pulled). It reads the Dockerfile (scripts/dockerfile.ts) and
 * runs each stage's steps in a chroot of a minimal Debian bookworm made by `debootstrap --variant=minbase`, from
 * the Debian mirror apt uses here; then it starts the last stage's CMD as its USER and checks what a container
 * platform would: the HEALTHCHECK command passes, /readyz answers 200, a sign-up works, the pages and the socket
 * answer, and SIGTERM stops the server cleanly.
 *
 * The base image `node:20-bookworm-slim` is Debian bookworm with Node.js 20 in /usr/local and a `node` user
 * (uid 1000). The chroot gets the same: this machine's node binary (v20) and npm are copied to /usr/local, and the
 * user is made with the image's own commands. Each RUN runs `/bin/sh -c` as the stage's user, in its WORKDIR,
 * with its ENV, in private mount and PID namespaces (so the CMD is process 1, as in a container, and every mount
 * disappears with the process); a `--mount=type=cache` becomes a directory of the cache kept between runs.
 * The build reaches the npm registry as this machine does: if NODE_EXTRA_CA_CERTS or npm's `cafile` names a file
 * (a proxy's certificate authority), the file is copied to the same path in the chroot and named in
 * NODE_EXTRA_CA_CERTS for the RUN steps, as a builder host hands its trust store to a build; the container's own
 * run does not get it.
 *
 * Usage (as root): node --import tsx scripts/chroot-check.ts [--keep]   (exits 0 when every check passed)
 *   SPOLU_CHROOT_CACHE  where the debootstrap result and the RUN cache mounts are kept between runs
 *                       (default /var/cache/spolu-chroot; empty: keep nothing, debootstrap every time)
 *   --keep              work on disk instead of a tmpfs, and leave the stage directories for a look
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import {
  chownSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import dockerignore from "@balena/dockerignore";
import { parseDockerfile, type Stage, type Step } from "./dockerfile";

const BASE_IMAGE = "node:20-bookworm-slim";
const BASE_NODE_MAJOR = 20;
const SUITE = "bookworm";
const IMAGE_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";
const CACHE = process.env.SPOLU_CHROOT_CACHE ?? "/var/cache/spolu-chroot";
/** A cached debootstrap older than this is made anew (it would miss Debian's security updates). */
const ROOTFS_MAX_AGE_DAYS = 30;
const READY_TIMEOUT_MS = 180_000;
const STOP_TIMEOUT_MS = 30_000;
const CONTEXT = process.cwd();
const started = Date.now();

function say(message: string) {
  const seconds = ((Date.now() - started) / 1000).toFixed(0).padStart(4);
  process.stdout.write(`[chroot-check ${seconds}s] ${message}\n`);
}

class CheckFailed extends Error {}

function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new CheckFailed(message);
}

/** Runs a host command, its output passed through; throws when it fails. */
function host(command: string, args: string[]) {
  const result = spawnSync(command, args, { stdio: "inherit" });
  if (result.status !== 0) throw new CheckFailed(`${command} ${args.join(" ")} failed (${result.status ?? result.signal})`);
}

function hasCommand(name: string): boolean {
  return spawnSync("sh", ["-c", `command -v ${name}`], { stdio: "ignore" }).status === 0;
}

/** The bookworm mirror apt uses on this machine (deb822 .sources or one-line sources.list). */
function debianMirror(): string {
  const files = ["/etc/apt/sources.list"];
  const dir = "/etc/apt/sources.list.d";
  if (existsSync(dir)) files.push(...readdirSync(dir).map((name) => path.join(dir, name)));
  for (const file of files.filter((name) => /\.(list|sources)$/.test(name) && existsSync(name))) {
    const text = readFileSync(file, "utf8");
    if (file.endsWith(".sources")) {
      for (const entry of text.split(/\n\s*\n/)) {
        const field = (name: string) => new RegExp(`^${name}:\\s*(.+)$`, "mi").exec(entry)?.[1]?.trim().split(/\s+/) ?? [];
        if (field("Types").includes("deb") && field("Suites").includes(SUITE) && field("Components").includes("main")) {
          const uri = field("URIs")[0];
          if (uri) return uri;
        }
      }
    } else {
      const line = text
        .split("\n")
        .find((row) => new RegExp(`^deb\\s+(\\[[^\\]]*\\]\\s+)?\\S+\\s+${SUITE}\\s.*\\bmain\\b`).test(row));
      const uri = line?.replace(/^deb\s+(\[[^\]]*\]\s+)?/, "").split(/\s+/)[0];
      if (uri) return uri;
    }
  }
  return "http://deb.debian.org/debian";
}

/** A minimal Debian bookworm: from the cache when it is there and fresh, else made by debootstrap (and cached). */
function debianRoot(work: string): string {
  const mirror = debianMirror();
  const cached = CACHE ? path.join(CACHE, `${SUITE}-minbase`) : "";
  const marker = `${cached}.done`;
  if (cached && existsSync(marker)) {
    const ageDays = (Date.now() - statSync(marker).mtimeMs) / 86_400_000;
    if (readFileSync(marker, "utf8").trim() === mirror && ageDays < ROOTFS_MAX_AGE_DAYS) {
      say(`Debian ${SUITE} from the cache (${cached}, made ${ageDays.toFixed(1)} days ago)`);
      return cached;
    }
    rmSync(marker);
    rmSync(cached, { recursive: true, force: true });
  }
  const target = cached ? `${cached}.partial-${process.pid}` : path.join(work, "debian");
  if (cached) mkdirSync(CACHE, { recursive: true });
  say(`debootstrap --variant=minbase ${SUITE} from ${mirror}`);
  const result = spawnSync("debootstrap", ["--variant=minbase", SUITE, target, mirror], { encoding: "utf8" });
  if (result.status !== 0) {
    process.stdout.write(result.stdout + result.stderr);
    rmSync(target, { recursive: true, force: true });
    throw new CheckFailed(`debootstrap failed (${result.status})`);
  }
  if (!cached) return target;
  try {
    renameSync(target, cached);
    writeFileSync(marker, `${mirror}\n`);
    say(`Debian ${SUITE} made and cached in ${cached}`);
  } catch (error) {
    // Another check cached one at the same time: use that one.
    if (!existsSync(marker)) throw error;
    rmSync(target, { recursive: true, force: true });
  }
  return cached;
}

/** Copies a tree with ownership, links and modes kept (cp -a: much faster than node for node_modules). */
function copyTree(from: string, to: string) {
  mkdirSync(to, { recursive: true });
  host("cp", ["-a", "--reflink=auto", `${from}/.`, to]);
}

/** What `FROM node:20-bookworm-slim` gives: Debian, Node.js 20 and npm in /usr/local, the `node` user. */
function baseImage(debian: string, work: string): string {
  const major = Number(process.versions.node.split(".")[0]);
  check(
    major === BASE_NODE_MAJOR,
    `this machine's node is ${process.version}; the image is ${BASE_IMAGE}: the stand-in needs Node.js ${BASE_NODE_MAJOR}`,
  );
  const root = path.join(work, "base");
  copyTree(debian, root);
  const npm = path.dirname(path.dirname(realPathOf("npm")));
  cpSync(process.execPath, path.join(root, "usr/local/bin/node"));
  cpSync(npm, path.join(root, "usr/local/lib/node_modules/npm"), {
    recursive: true,
    verbatimSymlinks: true,
    // npm's own npmrc on this machine names this machine's certificate file; the image's npm has none.
    filter: (source) => source !== path.join(npm, "npmrc"),
  });
  for (const [name, script] of [
    ["npm", "npm-cli.js"],
    ["npx", "npx-cli.js"],
  ]) {
    host("ln", ["-sf", `../lib/node_modules/npm/bin/${script}`, path.join(root, "usr/local/bin", name!)]);
  }
  // The image's own commands (docker-library/node's Dockerfile for bookworm-slim).
  host("chroot", [
    root,
    "sh",
    "-c",
    "groupadd --gid 1000 node && useradd --uid 1000 --gid node --shell /bin/bash --create-home node",
  ]);
  // A container's /etc/resolv.conf and /etc/hosts come from its host.
  for (const file of ["/etc/resolv.conf", "/etc/hosts"]) cpSync(file, path.join(root, file));
  const trust = hostTrust();
  if (trust) {
    mkdirSync(path.join(root, path.dirname(trust)), { recursive: true });
    cpSync(trust, path.join(root, trust));
  }
  say(`base image ${BASE_IMAGE} stood in for: Debian ${SUITE}, node ${process.version}, npm ${npmVersion()}, user node`);
  return root;
}

/**
 * The certificate file this machine's npm trusts beyond Node's own list (NODE_EXTRA_CA_CERTS, else npm's `cafile`),
 * when there is one: the build steps reach the registry through the same proxy.
 */
function hostTrust(): string | undefined {
  const cafile = spawnSync("npm", ["config", "get", "cafile"], { encoding: "utf8" }).stdout.trim();
  return [process.env.NODE_EXTRA_CA_CERTS, cafile].find((file) => file && path.isAbsolute(file) && existsSync(file));
}

function realPathOf(command: string): string {
  const found = spawnSync("sh", ["-c", `readlink -f "$(command -v ${command})"`], { encoding: "utf8" }).stdout.trim();
  check(found, `${command} not found`);
  return found;
}

function npmVersion(): string {
  return spawnSync("npm", ["--version"], { encoding: "utf8" }).stdout.trim();
}

/** uid and gid of `user` (a name, `name:group` or numbers) in the image's /etc/passwd and /etc/group. */
function userIds(root: string, user: string): { uid: number; gid: number; home: string } {
  const [name, group] = user.split(":") as [string, string | undefined];
  const passwd = readFileSync(path.join(root, "etc/passwd"), "utf8")
    .split("\n")
    .map((line) => line.split(":"));
  const entry = passwd.find((fields) => fields[0] === name || fields[2] === name);
  check(entry || /^\d+$/.test(name), `the user ${name} does not exist in the image`);
  const uid = entry ? Number(entry[2]) : Number(name);
  let gid = entry ? Number(entry[3]) : uid;
  if (group !== undefined) {
    const groups = readFileSync(path.join(root, "etc/group"), "utf8")
      .split("\n")
      .map((line) => line.split(":"));
    const found = groups.find((fields) => fields[0] === group || fields[2] === group);
    check(found || /^\d+$/.test(group), `the group ${group} does not exist in the image`);
    gid = found ? Number(found[2]) : Number(group);
  }
  return { uid, gid, home: entry?.[5] || "/" };
}

/**
 * Mounts the binds and /proc inside private mount and PID namespaces, then becomes the user inside the chroot:
 * the command is process 1 of its namespace, and every mount goes away with it.
 */
const RUNNER = `set -e
root=$1; userspec=$2; binds=$3; shift 3
while [ "$binds" -gt 0 ]; do mkdir -p "$root$2"; mount --bind "$1" "$root$2"; shift 2; binds=$((binds - 1)); done
mount -t proc proc "$root/proc"
exec chroot --userspec="$userspec" "$root" "$@"`;

interface InImage {
  root: string;
  user: string;
  cwd: string;
  env: Record<string, string>;
  argv: string[];
  binds?: [string, string][];
}

function inImage({ root, user, cwd, env, argv, binds = [] }: InImage): ChildProcess {
  const ids = userIds(root, user);
  const environment = { PATH: IMAGE_PATH, HOME: ids.home, ...env };
  const variables = Object.entries(environment).map(([name, value]) => `${name}=${value}`);
  return spawn(
    "unshare",
    [
      "--mount",
      "--propagation",
      "private",
      "--pid",
      "--fork",
      "--kill-child",
      "/bin/sh",
      "-c",
      RUNNER,
      "runner",
      root,
      `${ids.uid}:${ids.gid}`,
      String(binds.length),
      ...binds.flat(),
      "/usr/bin/env",
      "-i",
      "-C",
      cwd,
      ...variables,
      ...argv,
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
}

/** Runs to the end, printing its output; answers its exit code. */
function finished(child: ChildProcess, prefix = "    "): Promise<number | null> {
  const print = (chunk: Buffer) => process.stdout.write(chunk.toString().replace(/^(?=.)/gm, prefix));
  child.stdout!.on("data", print);
  child.stderr!.on("data", print);
  return new Promise((resolve) => child.once("exit", (code) => resolve(code)));
}

interface StageState {
  root: string;
  env: Record<string, string>;
  user: string;
  workdir: string;
}

function inside(root: string, file: string): string {
  const resolved = path.resolve(root, `.${path.posix.resolve("/", file)}`);
  check(resolved === root || resolved.startsWith(`${root}/`), `${file} leaves the image`);
  return resolved;
}

/** COPY: sources from the build context (less .dockerignore) or from an earlier stage, owned by root or --chown. */
function copy(step: Extract<Step, { kind: "copy" }>, state: StageState, stages: Map<string, StageState>) {
  const destination = path.posix.resolve(state.workdir, step.destination);
  const intoDirectory = step.destination.endsWith("/") || step.destination === "." || step.sources.length > 1;
  const owner = step.chown ? userIds(state.root, step.chown) : { uid: 0, gid: 0 };
  const ignored = dockerignore({ ignorecase: false }).add(readFileSync(path.join(CONTEXT, ".dockerignore"), "utf8"));
  const fromStage = step.from === undefined ? undefined : stages.get(step.from);
  check(step.from === undefined || fromStage, `COPY --from=${step.from}: no such stage`);
  for (const source of step.sources) {
    const origin = fromStage ? inside(fromStage.root, source) : inside(CONTEXT, source);
    const isDirectory = lstatSync(origin).isDirectory();
    const target = isDirectory || !intoDirectory ? destination : path.posix.join(destination, path.posix.basename(source));
    const copied: string[] = [];
    if (fromStage) {
      if (isDirectory) copyTree(origin, inside(state.root, target));
      else {
        mkdirSync(path.dirname(inside(state.root, target)), { recursive: true });
        host("cp", ["-a", origin, inside(state.root, target)]);
      }
      copied.push(inside(state.root, target));
    } else {
      const entries = isDirectory ? readdirSync(origin).map((name) => path.join(origin, name)) : [origin];
      for (const entry of entries) {
        const relative = path.relative(CONTEXT, entry);
        if (ignored.ignores(relative)) continue;
        const to = isDirectory ? path.join(inside(state.root, target), path.basename(entry)) : inside(state.root, target);
        cpSync(entry, to, {
          recursive: true,
          verbatimSymlinks: true,
          filter: (file) => file === entry || !ignored.ignores(path.relative(CONTEXT, file)),
        });
        copied.push(to);
      }
    }
    for (const file of copied) host("chown", ["-R", "--no-dereference", `${owner.uid}:${owner.gid}`, file]);
  }
}

async function buildStage(stage: Stage, index: number, work: string, base: string, stages: Map<string, StageState>) {
  const label = stage.name ?? `stage ${index}`;
  const parent = stages.get(stage.from);
  check(parent || stage.from === BASE_IMAGE, `FROM ${stage.from}: the chroot stands in for ${BASE_IMAGE} only`);
  const state: StageState = {
    root: path.join(work, `stage-${index}`),
    env: { ...parent?.env },
    user: parent?.user ?? "root",
    workdir: parent?.workdir ?? "/",
  };
  copyTree(parent?.root ?? base, state.root);
  say(`${label}: FROM ${stage.from}`);
  for (const step of stage.steps) {
    const began = Date.now();
    switch (step.kind) {
      case "env":
        Object.assign(state.env, step.values);
        break;
      case "user":
        userIds(state.root, step.user);
        state.user = step.user;
        break;
      case "workdir":
        state.workdir = path.posix.resolve(state.workdir, step.path);
        mkdirSync(inside(state.root, state.workdir), { recursive: true });
        break;
      case "copy":
        copy(step, state, stages);
        break;
      case "run": {
        say(`${label} line ${step.line}: RUN ${step.command}  (as ${state.user}, in ${state.workdir})`);
        const binds = step.cacheMounts.map((mount): [string, string] => {
          const kept = CACHE
            ? path.join(CACHE, "mounts", mount.target.replace(/^\/+/, "").replaceAll("/", "_"))
            : mkdtempSync(path.join(work, "mount-"));
          mkdirSync(kept, { recursive: true });
          chownSync(kept, mount.uid, mount.gid);
          return [kept, mount.target];
        });
        const trustFile = hostTrust();
        const trust: Record<string, string> = trustFile ? { NODE_EXTRA_CA_CERTS: trustFile } : {};
        const code = await finished(
          inImage({
            root: state.root,
            user: state.user,
            cwd: state.workdir,
            env: { ...trust, ...state.env },
            argv: ["/bin/sh", "-c", step.command],
            binds,
          }),
        );
        check(code === 0, `${label} line ${step.line}: RUN ${step.command} exited with ${code}`);
        break;
      }
    }
    if (step.kind !== "run") say(`${label} line ${step.line}: ${describe(step)}`);
    else say(`${label} line ${step.line}: done in ${((Date.now() - began) / 1000).toFixed(0)}s`);
  }
  stages.set(stage.name ?? String(index), state);
  return state;
}

function describe(step: Step): string {
  switch (step.kind) {
    case "env":
      return `ENV ${Object.keys(step.values).join(" ")}`;
    case "user":
      return `USER ${step.user}`;
    case "workdir":
      return `WORKDIR ${step.path}`;
    case "copy":
      return `COPY ${step.from ? `--from=${step.from} ` : ""}${step.sources.join(" ")} ${step.destination}`;
    case "run":
      return `RUN ${step.command}`;
  }
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The process `unshare --fork` started: the container's process 1, as this machine numbers it. */
function containerProcess(unshare: ChildProcess): number | undefined {
  try {
    const children = readFileSync(`/proc/${unshare.pid}/task/${unshare.pid}/children`, "utf8").trim();
    return children ? Number(children.split(/\s+/)[0]) : undefined;
  } catch {
    return undefined;
  }
}

function statusField(pid: number, field: string): string[] {
  const line = readFileSync(`/proc/${pid}/status`, "utf8")
    .split("\n")
    .find((row) => row.startsWith(`${field}:`));
  return (
    line
      ?.slice(field.length + 1)
      .trim()
      .split(/\s+/) ?? []
  );
}

async function runImage(stage: Stage, state: StageState) {
  check(stage.command, "the last stage has no CMD");
  check(stage.healthCheck, "the last stage has no HEALTHCHECK");
  const port = await freePort();
  const env: Record<string, string> = { ...state.env, PORT: String(port) }; // docker run -e PORT=…: a free port on this shared machine
  say(`run: ${stage.command.join(" ")}  (as ${state.user}, in ${state.workdir}, PORT=${port})`);
  const server = inImage({ root: state.root, user: state.user, cwd: state.workdir, env, argv: stage.command });
  let output = "";
  server.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  server.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  let exitCode: number | null | undefined;
  const exited = new Promise<number | null>((resolve) => server.once("exit", (code) => resolve((exitCode = code))));
  const url = `http://127.0.0.1:${port}`;
  try {
    const deadline = Date.now() + READY_TIMEOUT_MS;
    let status = 0;
    while (Date.now() < deadline && exitCode === undefined) {
      status = (await fetch(`${url}/readyz`).catch(() => null))?.status ?? 0;
      if (status === 200) break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    check(status === 200, `/readyz did not answer 200 within ${READY_TIMEOUT_MS / 1000}s (last: ${status || "no answer"})`);
    say("run: /readyz answers 200");

    const pid = containerProcess(server);
    check(pid, "the container's process was not found");
    const uid = statusField(pid, "Uid")[0];
    const nsPid = statusField(pid, "NSpid").at(-1);
    check(uid === String(userIds(state.root, state.user).uid), `the server runs as uid ${uid}, not as ${state.user}`);
    check(nsPid === "1", `the server is process ${nsPid} of its namespace, not process 1`);
    say(`run: the server is process 1 of its namespace and runs as ${state.user} (uid ${uid})`);

    const probe = inImage({ root: state.root, user: state.user, cwd: state.workdir, env, argv: stage.healthCheck.command });
    const probeTimer = setTimeout(() => probe.kill("SIGKILL"), stage.healthCheck.timeoutSeconds * 1000);
    const probeCode = await finished(probe);
    clearTimeout(probeTimer);
    check(probeCode === 0, `the HEALTHCHECK command exited with ${probeCode}`);
    say("run: the HEALTHCHECK command passes");

    const email = `chroot-${Date.now()}@example.com`;
    const registered = await fetch(`${url}/auth/register`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email, password: "a container stand-in" }),
    });
    const answer = await registered.text();
    check(registered.status === 201, `POST /auth/register answered ${registered.status}: ${answer}`);
    const { token } = JSON.parse(answer) as { token: string };
    const me = await fetch(`${url}/auth/me`, { headers: { Authorization: `Bearer ${token}` } });
    check(
      me.status === 200 && ((await me.json()) as { email: string }).email === email,
      "GET /auth/me did not answer the new user",
    );
    say("run: a sign-up works (POST /auth/register 201, GET /auth/me 200)");

    const page = await fetch(`${url}/`);
    check(
      page.status === 200 && page.headers.get("content-type")?.startsWith("text/html"),
      `GET / answered ${page.status} ${page.headers.get("content-type")}`,
    );
    const socket = await fetch(`${url}/ws/?EIO=4&transport=polling`);
    check(socket.status === 200 && (await socket.text()).startsWith("0{"), `the socket's handshake answered ${socket.status}`);
    say("run: the pages (GET / 200 text/html) and the socket (/ws handshake) answer");

    const secret = path.join(state.root, env.DATA_DIR ?? "/data", "jwt-secret");
    check(existsSync(secret) && statSync(secret).uid === Number(uid), `${env.DATA_DIR}/jwt-secret was not written by the server`);

    process.kill(pid, "SIGTERM"); // what `docker stop` sends to process 1
    const stopTimer = setTimeout(() => server.kill("SIGKILL"), STOP_TIMEOUT_MS);
    const code = await exited;
    clearTimeout(stopTimer);
    const shutdownLogged = output.split("\n").some((line) => {
      try {
        const entry = JSON.parse(line) as { msg?: unknown; signal?: unknown };
        return entry.msg === "Shutting down" && entry.signal === "SIGTERM";
      } catch {
        return false;
      }
    });
    check(code === 0, `SIGTERM: the server exited with ${code}`);
    check(shutdownLogged, "SIGTERM: the server exited without logging that it was shutting down on SIGTERM");
    say("run: SIGTERM reaches node, which drains and exits 0");
    const complaints = output.split("\n").filter((line) => /"level":"(warn|error)"|\b(Error|EACCES|EROFS)\b/.test(line));
    say(`run: the server wrote ${output.split("\n").length} lines, ${complaints.length} of them warnings or errors`);
    complaints.forEach((line) => process.stdout.write(`    ${line}\n`));
  } catch (error) {
    process.stdout.write(`---- the server's output ----\n${output}\n----\n`);
    throw error;
  } finally {
    if (exitCode === undefined) {
      server.kill("SIGKILL"); // --kill-child takes the namespace with it
      await exited;
    }
  }
}

/** Removes the work directory, never crossing into another file system. */
function removeWork(work: string) {
  const mounted = readFileSync("/proc/self/mountinfo", "utf8")
    .split("\n")
    .some((line) => line.split(" ")[4]?.startsWith(work));
  if (mounted) throw new CheckFailed(`something is still mounted at or under ${work}: left in place`);
  host("rm", ["-rf", "--one-file-system", work]);
}

const WORK_VARIABLE = "SPOLU_CHROOT_WORK";
const keep = process.argv.includes("--keep");

/**
 * The check runs in a private mount namespace of its own, with its work directory on a tmpfs there (the stages are
 * a few GB of small files: copying them is quicker in memory, and removing them is free). Whatever happens to the
 * check, the tmpfs and every mount below it go with the namespace; this outer process removes the empty directory.
 */
function outer(): number {
  check(process.platform === "linux" && process.getuid?.() === 0, "run as root on Linux (debootstrap, chroot and mounts)");
  for (const command of ["debootstrap", "unshare", "chroot", "cp"]) {
    check(hasCommand(command), `${command} is missing (debootstrap: apt-get install debootstrap)`);
  }
  const work = mkdtempSync("/var/tmp/spolu-chroot-");
  const inner = spawnSync(
    "unshare",
    ["--mount", "--propagation", "private", process.execPath, ...process.execArgv, ...process.argv.slice(1)],
    { stdio: "inherit", env: { ...process.env, [WORK_VARIABLE]: work } },
  );
  if (keep) say(`kept ${work}`);
  else removeWork(work);
  return inner.status ?? 1;
}

async function inner(work: string) {
  const stages = parseDockerfile(readFileSync(path.join(CONTEXT, "Dockerfile"), "utf8"));
  // --keep: on disk, so that the stages outlive the namespace.
  if (!keep) host("mount", ["-t", "tmpfs", "-o", "size=12g,mode=0755", "spolu-chroot", work]);
  say(`work directory ${work}${keep ? "" : " (tmpfs)"}; cache ${CACHE || "(none)"}`);
  const base = baseImage(debianRoot(work), work);
  const built = new Map<string, StageState>();
  let last: StageState | undefined;
  for (const [index, stage] of stages.entries()) last = await buildStage(stage, index, work, base, built);
  await runImage(stages.at(-1)!, last!);
  say("passed");
}

async function main() {
  const work = process.env[WORK_VARIABLE];
  if (work) await inner(work);
  else process.exitCode = outer();
}

main().catch((error: unknown) => {
  process.stderr.write(`[chroot-check] FAILED: ${error instanceof Error ? error.message : String(error)}\n`);
  if (!(error instanceof CheckFailed) && error instanceof Error) process.stderr.write(`${error.stack}\n`);
  process.exit(1);
});
