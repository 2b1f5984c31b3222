import { randomUUID } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { config } from "../config";

/*
 * Where media files live. Everything else in lib/media talks to this interface only, so another store can take the
 * local directory's place: an S3-compatible one (AWS S3, MinIO, Cloudflare R2...) would implement `put` as a
 * PutObject (or a multipart upload for a stream) under the generated key, `get` as GetObject's body stream, `delete`
 * as DeleteObject (which succeeds for a missing key) and `size` as HeadObject's ContentLength, and be chosen by
 * MEDIA_STORAGE=s3 with its bucket, endpoint and credentials in lib/config.ts. Keys are generated here, never taken
 * from a user's filename.
 */
export interface MediaStorage {
  /** Stores the bytes under a new key and answers it; nothing is left behind when it fails. */
  put(content: Buffer | Readable): Promise<string>;
  /** The stored bytes as a stream, or null when there is no such key. */
  get(key: string): Promise<Readable | null>;
  /** Removes the bytes; a key that is gone already is no error. */
  delete(key: string): Promise<void>;
  /** The stored size in bytes, or null when there is no such key. */
  size(key: string): Promise<number | null>;
}

const KEY = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const TEMP = ".tmp";

/**
 * Files under one directory: `<root>/<first two characters of the key>/<key>`. A file is written to `<root>/.tmp`
 * first and renamed into place once complete (atomic on one file system), so a reader never sees half a file and a
 * failed write leaves no file under its key; the temporary file is removed on failure.
 */
export class LocalMediaStorage implements MediaStorage {
  constructor(readonly root: string) {}

  private pathOf(key: string): string {
    // Keys are ours (UUIDs), but a key read from anywhere is checked before it becomes a path.
    if (!KEY.test(key)) throw new Error(`Not a media storage key: ${JSON.stringify(key)}`);
    return path.join(this.root, key.slice(0, 2), key);
  }

  async put(content: Buffer | Readable): Promise<string> {
    const key = randomUUID();
    const target = this.pathOf(key);
    const temp = path.join(this.root, TEMP, `${key}.part`);
    await mkdir(path.dirname(temp), { recursive: true });
    try {
      await pipeline(
        Buffer.isBuffer(content) ? Readable.from([content]) : content,
        createWriteStream(temp, { flags: "wx", mode: 0o600 }),
      );
      await mkdir(path.dirname(target), { recursive: true });
      await rename(temp, target);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
    return key;
  }

  async get(key: string): Promise<Readable | null> {
    const file = this.pathOf(key);
    try {
      await stat(file);
    } catch {
      return null;
    }
    return createReadStream(file);
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  async size(key: string): Promise<number | null> {
    try {
      return (await stat(this.pathOf(key))).size;
    } catch {
      return null;
    }
  }
}

let current: { root: string; storage: MediaStorage } | null = null;

/** The media directory: MEDIA_DIR, else $DATA_DIR/media. */
export function mediaRoot(): string {
  const { MEDIA_DIR, DATA_DIR } = config();
  return path.resolve(MEDIA_DIR ?? path.join(DATA_DIR, "media"));
}

/** The configured store (MEDIA_STORAGE: only `local` so far). */
export function mediaStorage(): MediaStorage {
  const root = mediaRoot();
  if (current?.root !== root) current = { root, storage: new LocalMediaStorage(root) };
  return current.storage;
}
