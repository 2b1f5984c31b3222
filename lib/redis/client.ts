import { Redis } from "ioredis";
import { config } from "../config";
import { log } from "../log";

const REDIS = Symbol.for("spolu.redis");
type Holder = { [REDIS]?: Redis | null };
const holder = globalThis as Holder;

/** The shared Redis connection when REDIS_URL is set; null means "keep it in this process's memory". */
export function redis(): Redis | null {
  if (holder[REDIS] === undefined) {
    const url = config().REDIS_URL;
    holder[REDIS] = url ? connect(url) : null;
  }
  return holder[REDIS];
}

function connect(url: string): Redis {
  const client = new Redis(url, { maxRetriesPerRequest: 2, enableOfflineQueue: true, lazyConnect: false });
  client.on("error", (error) => log.warn("Redis error", { error: error.message }));
  return client;
}

export async function closeRedis(): Promise<void> {
  const client = holder[REDIS];
  holder[REDIS] = undefined;
  if (client) await client.quit().catch(() => client.disconnect());
}
