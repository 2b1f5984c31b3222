import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { config } from "../../lib/config";
import { deployRunListOutput, deployWebhookAnswer, type DeployRunOutput } from "../../lib/deploy/schema";
import { runDeployQueue } from "../../lib/deploy/service";
import { moduleOverrides } from "../../lib/modules/registry";
import { hubSignature } from "../../lib/net/hub-signature";
import { ADMIN_EMAIL, expectProblem, expectShape, registerUser, startTestServer, type TestServer } from "./harness";

/*
 * The deploy webhook (lib/deploy) as GitHub calls it: signed deliveries run DEPLOY_COMMAND (here small /bin/sh
 * scripts writing to a marker file in a temporary directory), one at a time, each recorded.
 */

const SECRET = "deploy-secret-for-tests-0123456789";
const MAIN = "refs/heads/main";

let server: TestServer;
let adminToken: string;
let dir: string;
let marker: string;

/** A command line: `/bin/sh -c '<script>'` (the script must not contain a single quote). */
function shell(script: string): string {
  return `/bin/sh -c '${script}'`;
}

function setCommand(command: string, timeoutMs = 20_000): void {
  Object.assign(config(), { DEPLOY_COMMAND: command, DEPLOY_TIMEOUT_MS: timeoutMs });
}

function pushBody(ref = MAIN, after = "0123456789abcdef0123456789abcdef01234567"): string {
  return JSON.stringify({ ref, after, repository: { full_name: "spolu/spolu" }, pusher: { name: "ada" } });
}

function deliver(body: string, options: { event?: string; delivery?: string; signature?: string | null } = {}) {
  const headers: Record<string, string> = {
    "Content-Type": "application/json",
    "X-GitHub-Event": options.event ?? "push",
    "X-GitHub-Delivery": options.delivery ?? randomUUID(),
  };
  const signature = options.signature === undefined ? hubSignature(SECRET, body) : options.signature;
  if (signature !== null) headers["X-Hub-Signature-256"] = signature;
  return server.request("/api/v1/deploy/webhook", { method: "POST", body, headers });
}

async function runs(): Promise<DeployRunOutput[]> {
  const response = await server.request("/api/v1/admin/deploys", { token: adminToken });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return expectShape(deployRunListOutput, response.body).items;
}

/** Waits until every recorded run has finished (none queued or running); answers them, newest first. */
async function settled(): Promise<DeployRunOutput[]> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const items = await runs();
    if (items.every((run) => run.status !== "queued" && run.status !== "running")) return items;
    if (Date.now() > deadline) throw new Error(`runs did not finish: ${JSON.stringify(items)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

beforeAll(async () => {
  server = await startTestServer({ DEPLOY_WEBHOOK_SECRET: SECRET, DEPLOY_COMMAND: "/bin/true", DEPLOY_REF: MAIN });
  adminToken = (await registerUser(server, { email: ADMIN_EMAIL })).token;
});

afterAll(async () => {
  await server?.close();
});

afterEach(async () => {
  await settled();
  await server.sql("delete from deploy_runs");
  rmSync(dir, { recursive: true, force: true });
});

function freshDir(): void {
  dir = mkdtempSync(path.join(tmpdir(), "spolu-deploy-"));
  marker = path.join(dir, "marker");
}

describe("POST /deploy/webhook", () => {
  test("a signed push of the deployed ref runs the command once, with the ref in its environment and no secrets", async () => {
    freshDir();
    setCommand(shell(`echo "deployed $DEPLOY_REF $DEPLOY_SHA $DEPLOY_DELIVERY" >> ${marker}; env; echo done`));
    const response = await deliver(pushBody(), { delivery: "delivery-1" });
    expect(response.status, JSON.stringify(response.body)).toBe(202);
    const answer = expectShape(deployWebhookAnswer, response.body);
    expect(answer).toMatchObject({
      duplicate: false,
      run: { deliveryId: "delivery-1", event: "push", ref: MAIN, status: "queued" },
    });

    const [run] = await settled();
    expect(run).toMatchObject({
      status: "succeeded",
      exitCode: 0,
      reason: null,
      commitSha: "0123456789abcdef0123456789abcdef01234567",
    });
    expect(readFileSync(marker, "utf8")).toBe(`deployed ${MAIN} 0123456789abcdef0123456789abcdef01234567 delivery-1\n`);
    expect(run!.output).toMatch(/done\n$/);
    expect(run!.output).toContain(`DEPLOY_REF=${MAIN}`);
    expect(run!.output).not.toContain(SECRET);
    expect(run!.output).not.toContain("JWT_SECRET");
    expect(Date.parse(run!.finishedAt!)).toBeGreaterThanOrEqual(Date.parse(run!.startedAt!));
  });

  test("the same delivery id again answers 200 duplicate and runs nothing again", async () => {
    freshDir();
    setCommand(shell(`echo run >> ${marker}`));
    expect((await deliver(pushBody(), { delivery: "again-1" })).status).toBe(202);
    await settled();
    const again = await deliver(pushBody(), { delivery: "again-1" });
    expect(again.status).toBe(200);
    expect(expectShape(deployWebhookAnswer, again.body)).toMatchObject({
      duplicate: true,
      run: { deliveryId: "again-1", status: "succeeded" },
    });
    await settled();
    expect(readFileSync(marker, "utf8")).toBe("run\n");
    expect(await runs()).toHaveLength(1);
  });

  test("two deliveries at once run one after the other, never overlapping", async () => {
    freshDir();
    setCommand(shell(`echo "start $DEPLOY_DELIVERY" >> ${marker}; sleep 0.4; echo "end $DEPLOY_DELIVERY" >> ${marker}`));
    const [first, second] = await Promise.all([deliver(pushBody(), { delivery: "a" }), deliver(pushBody(), { delivery: "b" })]);
    expect([first.status, second.status]).toEqual([202, 202]);
    const items = await settled();
    expect(items.map((run) => run.status)).toEqual(["succeeded", "succeeded"]);
    const lines = readFileSync(marker, "utf8").trim().split("\n");
    expect(lines).toHaveLength(4);
    const [one, two] = [lines[0]!.split(" ")[1], lines[2]!.split(" ")[1]];
    expect(new Set([one, two])).toEqual(new Set(["a", "b"]));
    expect(lines).toEqual([`start ${one}`, `end ${one}`, `start ${two}`, `end ${two}`]);
  });

  test("unsigned, wrongly signed, or signed over another body: 401 and nothing runs", async () => {
    freshDir();
    setCommand(shell(`echo ran >> ${marker}`));
    const body = pushBody();
    const attempts = [
      await deliver(body, { signature: null }),
      await deliver(body, { signature: hubSignature("another-secret-entirely", body) }),
      await deliver(body, { signature: hubSignature(SECRET, pushBody("refs/heads/other")) }),
      await deliver(body, { signature: `sha1=${"0".repeat(40)}` }),
      await deliver("not json", { signature: null }),
    ];
    for (const response of attempts) expectProblem(response, 401, "unauthenticated");
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(existsSync(marker)).toBe(false);
    expect(await runs()).toEqual([]);
  });

  test("a failing command is recorded failed with its exit code and the end of its output", async () => {
    freshDir();
    setCommand(shell(`i=0; while [ $i -lt 600 ]; do echo "line $i of noise"; i=$((i+1)); done; echo boom >&2; exit 3`));
    expect((await deliver(pushBody())).status).toBe(202);
    const [run] = await settled();
    expect(run).toMatchObject({ status: "failed", exitCode: 3, reason: "exited with 3" });
    expect(run!.output).toMatch(/line 599 of noise\nboom\n$/);
    expect(Buffer.byteLength(run!.output!)).toBeLessThanOrEqual(4096);
    expect(run!.output).not.toContain("line 0 of noise");
  });

  test("a command that passes DEPLOY_TIMEOUT_MS is killed (with what it started) and recorded failed", async () => {
    freshDir();
    setCommand(shell(`echo started; sleep 31.25; echo finished >> ${marker}`), 300);
    const started = Date.now();
    expect((await deliver(pushBody())).status).toBe(202);
    const [run] = await settled();
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(run).toMatchObject({ status: "failed", exitCode: null, reason: "timed out after 300 ms: killed" });
    expect(run!.output).toBe("started\n");
    expect(existsSync(marker)).toBe(false);
    // The shell's child went with it (the whole process group was killed).
    const left = execFileSync("ps", ["-eo", "args"], { encoding: "utf8" })
      .split("\n")
      .filter((line) => line.includes("sleep 31.25"));
    expect(left).toEqual([]);
  });

  test("a command that cannot start, or cannot be split into words, is recorded failed", async () => {
    freshDir();
    setCommand(path.join(dir, "no-such-script"));
    expect((await deliver(pushBody())).status).toBe(202);
    const [run] = await settled();
    expect(run).toMatchObject({ status: "failed", exitCode: null });
    expect(run!.reason).toMatch(/^could not start .*no-such-script: .*ENOENT/);

    setCommand("/bin/echo 'unclosed");
    expect((await deliver(pushBody())).status).toBe(202);
    const [unparsed] = await settled();
    expect(unparsed).toMatchObject({ status: "failed", exitCode: null, reason: "DEPLOY_COMMAND has an unclosed '" });
  });

  test("ping answers 200 without running; other refs and other events are recorded skipped", async () => {
    freshDir();
    setCommand(shell(`echo ran >> ${marker}`));
    const ping = await deliver(JSON.stringify({ zen: "Keep it logically awesome.", hook_id: 1 }), { event: "ping" });
    expect(ping.status).toBe(200);
    expect(expectShape(deployWebhookAnswer, ping.body)).toEqual({ duplicate: false, run: null });
    const other = await deliver(pushBody("refs/heads/feature"), { delivery: "feature-push" });
    expect(other.status).toBe(200);
    expect(other.body.run).toMatchObject({ status: "skipped", reason: `refs/heads/feature is not the deployed ref (${MAIN})` });
    const issue = await deliver(JSON.stringify({ action: "opened" }), { event: "issues" });
    expect(issue.body.run).toMatchObject({ status: "skipped", reason: "the issues event does not deploy (only push does)" });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(existsSync(marker)).toBe(false);
    expect((await runs()).map((run) => run.status)).toEqual(["skipped", "skipped"]);
  });

  test("400 naming the header without a delivery id (signed)", async () => {
    freshDir();
    const body = pushBody();
    const response = await server.request("/api/v1/deploy/webhook", {
      method: "POST",
      body,
      headers: {
        "Content-Type": "application/json",
        "X-GitHub-Event": "push",
        "X-Hub-Signature-256": hubSignature(SECRET, body),
      },
    });
    const problem = expectProblem(response, 400, "validation_failed");
    expect(problem.errors?.[0]).toMatchObject({ in: "header", pointer: "/x-github-delivery" });
  });

  test("a delivery waits queued while another process runs one, and runs after it", async () => {
    freshDir();
    setCommand(shell(`echo ran >> ${marker}`));
    // Another process's run in progress.
    await server.sql(
      `insert into deploy_runs (delivery_id, event, ref, status, started_at) values ('elsewhere', 'push', '${MAIN}', 'running', now())`,
    );
    expect((await deliver(pushBody(), { delivery: "waiting" })).status).toBe(202);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await runs()).find((run) => run.deliveryId === "waiting")?.status).toBe("queued");
    expect(existsSync(marker)).toBe(false);

    await server.sql(`update deploy_runs set status = 'succeeded', finished_at = now() where delivery_id = 'elsewhere'`);
    expect(await runDeployQueue()).toBe(1);
    expect((await runs()).find((run) => run.deliveryId === "waiting")?.status).toBe("succeeded");
    expect(readFileSync(marker, "utf8")).toBe("ran\n");
  });

  test("a run left running by a process that stopped fails after its time limit, and the queue moves on", async () => {
    freshDir();
    setCommand(shell(`echo ran >> ${marker}`), 1000);
    await server.sql(
      `insert into deploy_runs (delivery_id, event, ref, status, started_at) values ('crashed', 'push', '${MAIN}', 'running', now() - interval '2 minutes')`,
    );
    // A delivery received meanwhile waits its turn behind it.
    expect((await deliver(pushBody(), { delivery: "behind-it" })).status).toBe(202);
    expect(await runDeployQueue()).toBe(1);
    const items = await runs();
    expect(items.find((run) => run.deliveryId === "crashed")).toMatchObject({
      status: "failed",
      reason: "interrupted: the process running it stopped",
    });
    expect(items.find((run) => run.deliveryId === "behind-it")).toMatchObject({ status: "succeeded", exitCode: 0 });
    expect(readFileSync(marker, "utf8")).toBe("ran\n");
  });

  test("404 while not configured, and while the deploy module is off", async () => {
    freshDir();
    const body = pushBody();
    Object.assign(config(), { DEPLOY_WEBHOOK_SECRET: undefined });
    try {
      expectProblem(await deliver(body), 404, "not_found");
    } finally {
      Object.assign(config(), { DEPLOY_WEBHOOK_SECRET: SECRET });
    }
    moduleOverrides().set("deploy", false);
    try {
      expectProblem(await deliver(body), 404, "module_disabled");
      expectProblem(await server.request("/api/v1/admin/deploys", { token: adminToken }), 404, "module_disabled");
    } finally {
      moduleOverrides().delete("deploy");
    }
    expect(await runs()).toEqual([]);
  });
});

describe("GET /admin/deploys", () => {
  test("403 for a user who is not an administrator, 401 without a session", async () => {
    freshDir();
    const user = await registerUser(server);
    expectProblem(await server.request("/api/v1/admin/deploys", { token: user.token }), 403, "forbidden");
    expectProblem(await server.request("/api/v1/admin/deploys"), 401, "unauthenticated");
  });
});
