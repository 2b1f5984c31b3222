import { Readable, Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { describe, expect, test } from "vitest";
import { fromBuffer, type Entry } from "yauzl";
import { accountArchive, safeFileName, uniqueFileNames } from "./archive";

/** Every entry of a ZIP and its bytes. */
async function unzip(zip: Buffer): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  const archive = await new Promise<import("yauzl").ZipFile>((resolve, reject) =>
    fromBuffer(zip, { lazyEntries: true }, (error, opened) => (error ? reject(error) : resolve(opened))),
  );
  await new Promise<void>((resolve, reject) => {
    archive.on("error", reject);
    archive.on("end", resolve);
    archive.on("entry", (entry: Entry) => {
      archive.openReadStream(entry, async (error, stream) => {
        if (error) return reject(error);
        const chunks: Buffer[] = [];
        for await (const chunk of stream) chunks.push(chunk as Buffer);
        files.set(entry.fileName, Buffer.concat(chunks));
        archive.readEntry();
      });
    });
    archive.readEntry();
  });
  return files;
}

async function collect(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe("safeFileName", () => {
  test.each([
    ["Report.pdf", "Report.pdf"],
    ['a:b*c?"d<e>f|g.txt', "a_b_c__d_e_f_g.txt"],
    ["photo\u202Egpj.exe", "photo_gpj.exe"],
    ["line\nbreak\u0000.txt", "line_break_.txt"],
    ["..hidden", "hidden"],
    ["ends with dots. . .", "ends with dots"],
    ["CON.txt", "_CON.txt"],
    ["nul", "_nul"],
    ["...", "file"],
    ["Příloha – úkol.docx", "Příloha – úkol.docx"],
  ])("%j → %j", (name, safe) => {
    expect(safeFileName(name)).toBe(safe);
  });

  test("a long name is cut to 150 characters, the extension kept", () => {
    const safe = safeFileName(`${"ž".repeat(300)}.jpeg`);
    expect([...safe]).toHaveLength(150);
    expect(safe.endsWith("ž.jpeg")).toBe(true);
  });
});

describe("uniqueFileNames", () => {
  test("names equal but for case, or equal once made safe, get a number before the extension", () => {
    expect(uniqueFileNames(["notes.txt", "Notes.txt", "notes.txt", "a:b", "a?b", "x"])).toEqual([
      "notes.txt",
      "Notes (2).txt",
      "notes (3).txt",
      "a_b",
      "a_b (2)",
      "x",
    ]);
  });
});

describe("accountArchive", () => {
  test("holds the JSON and each file's exact bytes; a missing file is an empty entry", async () => {
    const big = Buffer.alloc(300_000, 7);
    const zip = await collect(
      accountArchive(
        '{"hello":"světe"}',
        [
          { path: "attachments/a.bin", open: async () => Readable.from([big.subarray(0, 1000), big.subarray(1000)]) },
          { path: "attachments/gone.txt", open: async () => null },
        ],
        new Date("2026-03-01T10:00:00Z"),
      ),
    );
    const files = await unzip(zip);
    expect([...files.keys()]).toEqual(["export.json", "attachments/a.bin", "attachments/gone.txt"]);
    expect(files.get("export.json")!.toString("utf8")).toBe('{"hello":"světe"}');
    expect(files.get("attachments/a.bin")!.equals(big)).toBe(true);
    expect(files.get("attachments/gone.txt")!.length).toBe(0);
  });

  test("is written while it is read: a slow reader holds back the files (memory does not grow with their size)", async () => {
    const CHUNK = 64 * 1024;
    const TOTAL = 16 * 1024 * 1024;
    let produced = 0;
    let opened = 0;
    const source = (): Readable => {
      let sent = 0;
      return new Readable({
        read() {
          if (sent >= TOTAL) return void this.push(null);
          sent += CHUNK;
          produced += CHUNK;
          this.push(Buffer.alloc(CHUNK, 1));
        },
      });
    };
    const archive = accountArchive(
      "{}",
      [
        { path: "attachments/one.bin", open: async () => (opened++, source()) },
        { path: "attachments/two.bin", open: async () => (opened++, source()) },
      ],
      new Date(),
    );
    let consumed = 0;
    let furthestAhead = 0;
    await pipeline(
      archive,
      new Writable({
        highWaterMark: CHUNK,
        write(chunk: Buffer, _encoding, done) {
          consumed += chunk.length;
          furthestAhead = Math.max(furthestAhead, produced - consumed);
          // A slow reader: the next chunk is taken on a later turn of the event loop.
          setImmediate(done);
        },
      }),
    );
    expect(consumed).toBeGreaterThan(2 * TOTAL);
    expect(opened).toBe(2);
    // 32 MB went through; never more than a few chunks were read ahead of what the reader took.
    expect(furthestAhead).toBeLessThan(2 * 1024 * 1024);
  });
});
