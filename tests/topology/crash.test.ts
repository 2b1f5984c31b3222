/**
 * `kill -9` of one of two processes while both take writes: every write that was acknowledged is there
 * afterwards, the other process keeps serving, and the jobs the dead one held run again elsewhere.
 */
import { afterAll, beforeAll, expect, test } from "vitest";
import {
  ADMIN_EMAIL,
  SHARED_REDIS_URL,
  call,
  clusterEnv,
  createDatabase,
  killAll,
  register,
  startProcess,
  waitFor,
  type ServerProcess,
} from "./cluster";

let database: Awaited<ReturnType<typeof createDatabase>>;
let servers: ServerProcess[];

beforeAll(async () => {
  database = await createDatabase();
  const env = clusterEnv(database.url, SHARED_REDIS_URL);
  servers = await Promise.all(["a", "b"].map((name) => startProcess({ name, env }).process));
}, 180_000);

afterAll(async () => {
  killAll();
  await database?.drop();
});

test("kill -9 under concurrent writes loses no acknowledged write; the survivor serves and takes over the jobs", async () => {
  const [victim, survivor] = servers as [ServerProcess, ServerProcess];
  const admin = await register(survivor.url, ADMIN_EMAIL);
  // One writer per lane: a person's requests are rate limited (RATE_LIMIT_POINTS, 600 a minute by default), and
  // eight lanes at full speed and the reads back would pass that for one person on a quiet machine.
  const writers = await Promise.all(Array.from({ length: 8 }, () => register(survivor.url)));
  const acknowledged: { id: string; title: string; via: string; at: number; token: string }[] = [];
  let stop = false;
  let killedAt = Number.POSITIVE_INFINITY;

  const writeLoop = async (server: ServerProcess, lane: number) => {
    const writer = writers[lane]!;
    for (let n = 0; !stop; n++) {
      const title = `${server.name}-${lane}-${n}`;
      try {
        const answer = await call(`${server.url}/tasks`, { token: writer.token, json: { title }, timeoutMs: 10_000 });
        if (answer.status === 201)
          acknowledged.push({ id: answer.body.id, title, via: server.name, at: Date.now(), token: writer.token });
        else if (server === survivor) throw new Error(`the survivor answered ${answer.status}: ${JSON.stringify(answer.body)}`);
      } catch (error) {
        // The victim's connections die with it; nothing it did not acknowledge is counted.
        if (server === survivor) throw error;
        if (Date.now() < killedAt) throw error;
        return;
      }
    }
  };
  const lanes = [0, 1, 2, 3].flatMap((lane) => [writeLoop(victim, lane), writeLoop(survivor, lane + 4)]);

  await waitFor("writes through both processes", async () => acknowledged.filter((w) => w.via === "a").length >= 40, 30_000, 50);
  killedAt = Date.now();
  victim.child.kill("SIGKILL");
  await victim.exited;
  await waitFor(
    "writes through the survivor after the kill",
    async () => acknowledged.some((w) => w.via === "b" && w.at > killedAt + 2000),
    30_000,
    50,
  );
  stop = true;
  await Promise.all(lanes);

  // Every acknowledged write is in the database, as it was acknowledged.
  const viaVictim = acknowledged.filter((write) => write.via === "a");
  expect(viaVictim.length).toBeGreaterThanOrEqual(40);
  for (const write of acknowledged) {
    const read = await call(`${survivor.url}/tasks/${write.id}`, { token: write.token });
    expect(read.status, `${write.title} (${write.via})`).toBe(200);
    expect(read.body.title).toBe(write.title);
  }
  expect((await call(`${survivor.url}/readyz`)).status).toBe(200);

  // The jobs that run every 15 s run again after the kill, in the survivor (a lease the victim held expires).
  await waitFor(
    "the survivor to run the 15-second jobs",
    async () => {
      const jobs = (await call(`${survivor.url}/api/v1/admin/jobs`, { token: admin.token })).body.items as {
        name: string;
        intervalMs: number;
        lastStartedAt: string | null;
        lastRunner: string | null;
      }[];
      return jobs
        .filter((job) => job.intervalMs === 15_000)
        .every(
          (job) => job.lastStartedAt && Date.parse(job.lastStartedAt) > killedAt && job.lastRunner?.endsWith(`:${survivor.pid}`),
        );
    },
    120_000,
    1000,
  );
}, 300_000);
