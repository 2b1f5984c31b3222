import { Readable } from "node:stream";
import { ZipFile } from "yazl";

/*
 * The account export as a ZIP: the export's JSON as `export.json` at the top, and every attachment file of the
 * user's under `attachments/`, written while it is sent (yazl, one file at a time, each opened only when its turn
 * comes and read with back-pressure): memory does not grow with the size of the files. The JSON is compressed; the
 * files are stored as they are (photos, audio and video are compressed already).
 *
 * A file's name in the archive is its display name made safe for every unzip tool and file system: characters that
 * Windows, macOS or Linux refuse in a name (`/ \ : * ? " < > |`), control and bidirectional formatting characters
 * become `_`; leading dots (hidden files) and trailing dots and spaces (dropped by Windows) go; reserved Windows
 * device names (`CON`, `NUL`, `COM1`...) get a leading `_`; at most 150 characters, the extension kept. Names equal
 * but for case (case-insensitive file systems) get ` (2)`, ` (3)`... before the extension.
 */

export const ARCHIVE_JSON = "export.json";
export const ARCHIVE_FOLDER = "attachments";
const NAME_MAX = 150;
const EXTENSION_MAX = 20;
const UNSAFE = /[<>:"/\\|?*\p{Cc}\p{Cf}\u2028\u2029]/gu;
const RESERVED = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(\..*)?$/i;

/** Cuts to at most `max` characters without splitting a surrogate pair. */
function cut(text: string, max: number): string {
  return [...text].slice(0, max).join("");
}

/** A display name as a safe file name (see above), not yet unique. */
export function safeFileName(name: string): string {
  let safe = name.normalize("NFC").replace(UNSAFE, "_").trim();
  safe = safe.replace(/^\.+/, "").replace(/[. ]+$/, "");
  if (RESERVED.test(safe)) safe = `_${safe}`;
  if (safe === "") safe = "file";
  if ([...safe].length <= NAME_MAX) return safe;
  const dot = safe.lastIndexOf(".");
  const extension = dot > 0 && safe.length - dot <= EXTENSION_MAX ? safe.slice(dot) : "";
  return `${cut(safe.slice(0, safe.length - extension.length), NAME_MAX - extension.length).trimEnd()}${extension}`;
}

/** Gives each display name a safe name no other in the list has (compared without case). */
export function uniqueFileNames(names: readonly string[]): string[] {
  const taken = new Set<string>();
  return names.map((name) => {
    const safe = safeFileName(name);
    const dot = safe.lastIndexOf(".");
    const [stem, extension] = dot > 0 ? [safe.slice(0, dot), safe.slice(dot)] : [safe, ""];
    let candidate = safe;
    for (let copy = 2; taken.has(candidate.toLowerCase()); copy++) candidate = `${stem} (${copy})${extension}`;
    taken.add(candidate.toLowerCase());
    return candidate;
  });
}

export interface ArchiveFile {
  /** The path inside the archive. */
  path: string;
  /** Opens the file's bytes when its turn comes; null when they are gone (an empty entry is written). */
  open(): Promise<Readable | null>;
}

/** Writes the ZIP while it is read: the JSON first, then each file, opened in its turn. */
export function accountArchive(json: string, files: readonly ArchiveFile[], modified: Date): Readable {
  const zip = new ZipFile();
  zip.addBuffer(Buffer.from(json, "utf8"), ARCHIVE_JSON, { mtime: modified });
  for (const file of files) {
    zip.addReadStreamLazy(file.path, { mtime: modified, compress: false }, (callback) => {
      file.open().then(
        (stream) => callback(null, stream ?? Readable.from([])),
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), null as never),
      );
    });
  }
  zip.end();
  // yazl's output is a PassThrough (a Node stream; its types say only ReadableStream).
  const output = zip.outputStream as unknown as Readable;
  zip.on("error", (error: Error) => output.destroy(error));
  return output;
}
