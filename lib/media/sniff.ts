import type { MediaKind } from "../db/schema/media";

/*
 * What a file is, decided from its bytes (magic numbers), never from its name or the type a client declares. Each
 * format says which kinds it may be uploaded as and the Content-Type it is served with for each: a WebM, MP4 or Ogg
 * file may hold only sound (what a browser's recorder makes) and then passes as audio too. Anything else (SVG, HTML,
 * PDF, executables...) has no format here and is refused.
 */

export type SniffedFormat = Partial<Record<MediaKind, string>>;

const TEXT: SniffedFormat = { text: "text/plain; charset=utf-8" };

const ascii = (bytes: Uint8Array, offset: number, text: string) =>
  bytes.length >= offset + text.length && [...text].every((char, index) => bytes[offset + index] === char.charCodeAt(0));

const startsWith = (bytes: Uint8Array, magic: readonly number[]) => magic.every((byte, index) => bytes[index] === byte);

/** An ISO base media file (MP4, M4A, QuickTime, HEIF): `ftyp` at offset 4, then the major brand. */
function isoFormat(bytes: Uint8Array): SniffedFormat | null {
  if (!ascii(bytes, 4, "ftyp") || bytes.length < 12) return null;
  const brand = String.fromCharCode(...bytes.subarray(8, 12));
  if (["heic", "heix", "hevc", "hevx", "heim", "heis", "mif1", "msf1"].includes(brand)) return { photo: "image/heic" };
  if (brand === "avif" || brand === "avis") return { photo: "image/avif" };
  if (brand === "M4A " || brand === "M4B " || brand === "M4P ") return { audio: "audio/mp4" };
  if (brand === "qt  ") return { video: "video/quicktime" };
  if (brand.startsWith("3g")) return { audio: "audio/3gpp", video: "video/3gpp" };
  return { audio: "audio/mp4", video: "video/mp4" };
}

/** An MPEG audio frame header: 11 sync bits, a version that exists, layer I-III, a bit rate and sample rate that exist. */
function isMpegFrame(bytes: Uint8Array): boolean {
  if (bytes.length < 4 || bytes[0] !== 0xff || (bytes[1]! & 0xe0) !== 0xe0) return false;
  const version = (bytes[1]! >> 3) & 0x03;
  const layer = (bytes[1]! >> 1) & 0x03;
  const bitrate = bytes[2]! >> 4;
  const sampleRate = (bytes[2]! >> 2) & 0x03;
  return version !== 0x01 && layer !== 0x00 && bitrate !== 0x0f && sampleRate !== 0x03;
}

/** Matroska's DocType ("webm" or "matroska") within the EBML header. */
function isWebm(bytes: Uint8Array): boolean {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, 64));
  return head.includes("webm", 0, "latin1");
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** Text: valid UTF-8 without NUL (a byte order mark is allowed). */
function isText(bytes: Uint8Array): boolean {
  if (bytes.includes(0)) return false;
  try {
    utf8.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** The format of the bytes, or null when they are none of the accepted ones. */
export function sniffFormat(bytes: Uint8Array): SniffedFormat | null {
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return { photo: "image/jpeg" };
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return { photo: "image/png" };
  if (ascii(bytes, 0, "GIF87a") || ascii(bytes, 0, "GIF89a")) return { photo: "image/gif" };
  if (ascii(bytes, 0, "RIFF") && ascii(bytes, 8, "WEBP")) return { photo: "image/webp" };
  if (ascii(bytes, 0, "RIFF") && ascii(bytes, 8, "WAVE")) return { audio: "audio/wav" };
  if (ascii(bytes, 0, "RIFF") && ascii(bytes, 8, "AVI ")) return { video: "video/x-msvideo" };
  if (ascii(bytes, 0, "fLaC")) return { audio: "audio/flac" };
  if (ascii(bytes, 0, "OggS")) {
    return ascii(bytes, 29, "theora") ? { video: "video/ogg" } : { audio: "audio/ogg", video: "video/ogg" };
  }
  if (startsWith(bytes, [0x1a, 0x45, 0xdf, 0xa3])) {
    return isWebm(bytes)
      ? { audio: "audio/webm", video: "video/webm" }
      : { audio: "audio/x-matroska", video: "video/x-matroska" };
  }
  const iso = isoFormat(bytes);
  if (iso) return iso;
  if (ascii(bytes, 0, "ID3") || isMpegFrame(bytes)) return { audio: "audio/mpeg" };
  if (isText(bytes)) return TEXT;
  return null;
}

/** A short name of a format for messages: its first Content-Type without parameters. */
export function describeFormat(format: SniffedFormat): string {
  return Object.values(format)[0]!.split(";")[0]!;
}
