import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { afterEach, expect, test } from "vitest";
import { LocalMediaStorage } from "./storage";

const roots: string[] = [];
function storage() {
  const root = mkdtempSync(path.join(tmpdir(), "spolu-media-"));
  roots.push(root);
  return new LocalMediaStorage(root);
}
const files = (root: string) =>
  readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => entry.name);
afterEach(() => roots.splice(0).forEach((root) => rmSync(root, { recursive: true, force: true })));

async function read(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

test("put stores bytes under a generated key; get, size and delete find them by it", async () => {
  const store = storage();
  const key = await store.put(Buffer.from("hello"));
  expect(key).toMatch(/^[0-9a-f-]{36}$/);
  expect(files(store.root)).toEqual([key]);
  expect(await store.size(key)).toBe(5);
  expect((await read((await store.get(key))!)).toString()).toBe("hello");
  const streamed = await store.put(Readable.from([Buffer.from("a"), Buffer.from("b")]));
  expect(await store.size(streamed)).toBe(2);
  await store.delete(key);
  await store.delete(key);
  expect(await store.get(key)).toBeNull();
  expect(await store.size(key)).toBeNull();
});

test("a stream that fails midway leaves no file, temporary or final", async () => {
  const store = storage();
  const failing = new Readable({
    read() {
      this.push(Buffer.alloc(1024));
      this.destroy(new Error("client went away"));
    },
  });
  await expect(store.put(failing)).rejects.toThrow("client went away");
  expect(files(store.root)).toEqual([]);
});

test("a key that is not one of ours never becomes a path", async () => {
  const store = storage();
  await expect(store.get("../../etc/passwd")).rejects.toThrow(/Not a media storage key/);
  await expect(store.delete("..")).rejects.toThrow(/Not a media storage key/);
});
