/*
 * A media item's filename is only a display name: it is shown in lists and offered on download, and never reaches
 * the file system (files are stored under a generated key). Names that look like paths are refused rather than
 * cleaned up, so that what the user sees is what they sent.
 */

import { displayTextProblem } from "../display-text";

export const MAX_FILENAME_LENGTH = 255;

/**
 * Why a filename is refused, or null when it is fine: a path (`/` or `\`, a drive such as `C:`, `.` or `..`),
 * NUL or another control character, a bidirectional formatting character that could disguise the extension
 * (`photo\u202Egpj.exe` shows as `photoexe.jpg`), or blank.
 */
export function filenameProblem(name: string): string | null {
  const disguise = displayTextProblem(name);
  if (disguise) return disguise;
  if (/[/\\]/.test(name)) return "is a display name, not a path: leave out / and \\";
  if (/^[a-zA-Z]:/.test(name)) return "is a display name, not a path: leave out the drive";
  if (name.trim() === "") return "must not be blank";
  if (/^\.+$/.test(name.trim())) return "must be a name, not . or ..";
  if ([...name].length > MAX_FILENAME_LENGTH) return `must be at most ${MAX_FILENAME_LENGTH} characters`;
  return null;
}

/** The display name as stored: trimmed, Unicode NFC. */
export function normaliseFilename(name: string): string {
  return name.normalize("NFC").trim();
}

/**
 * `Content-Disposition` for a download (RFC 6266): `filename` with an ASCII stand-in (other characters, quotes and
 * backslashes become `_`) for old clients, and `filename*` with the exact name in UTF-8 (RFC 8187).
 */
export function contentDisposition(name: string, disposition: "attachment" | "inline" = "attachment"): string {
  const fallback = name.replace(/[^\x20-\x7e]|["\\%]/g, "_");
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${disposition}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
