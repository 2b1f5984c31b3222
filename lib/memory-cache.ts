/**
 * An in-process cache bounded by bytes: entries are counted at the size `sizeOf` gives (an estimate of what the
 * key and value take in memory), and the oldest entries go first once the total passes `maxBytes`. Entries may
 * also expire (`ttlMs`). Every cache a process keeps in memory is one of these, or says why its bound differs
 * (the task lists keep their bytes in a ring of their own: lib/tasks/list-cache.ts).
 */
export class MemoryCache<V> {
  private readonly entries = new Map<string, { value: V; bytes: number; expiresAt: number }>();
  private total = 0;

  constructor(
    readonly maxBytes: number,
    private readonly sizeOf: (key: string, value: V) => number,
    private readonly ttlMs = Number.POSITIVE_INFINITY,
  ) {}

  get(key: string, now = Date.now()): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= now) {
      this.delete(key);
      return undefined;
    }
    return entry.value;
  }

  set(key: string, value: V, now = Date.now()): void {
    this.delete(key);
    const bytes = this.sizeOf(key, value);
    if (bytes > this.maxBytes) return;
    this.entries.set(key, { value, bytes, expiresAt: now + this.ttlMs });
    this.total += bytes;
    for (const [oldest, entry] of this.entries) {
      if (this.total <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.total -= entry.bytes;
    }
  }

  delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.total -= entry.bytes;
  }

  clear(): void {
    this.entries.clear();
    this.total = 0;
  }

  /** The bytes counted now (at most `maxBytes`). */
  get bytes(): number {
    return this.total;
  }

  get size(): number {
    return this.entries.size;
  }
}

/** What a string takes: V8 stores one- or two-byte characters; two is the safe estimate. */
export const stringBytes = (text: string) => 2 * text.length;
