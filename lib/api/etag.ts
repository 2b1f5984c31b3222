/*
 * Entity tags of single resources (RFC 9110 §8.8.3), shared by the API and the pages: a strong tag made from the
 * resource's JSON representation, so that it changes whenever anything a client sees changes and is the same on
 * every server process. The JSON is canonical (keys sorted at every level): the task a page holds, whether it came
 * from the API or over the socket, gives the same tag as the server computes. Web Crypto only: runs in browsers too.
 */

/** The value as JSON with every object's keys sorted (undefined members left out, as JSON.stringify does). */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, member: unknown) => {
    if (member === null || typeof member !== "object" || Array.isArray(member)) return member;
    return Object.fromEntries(Object.entries(member as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  });
}

/** The strong entity tag of a representation: `"` + 22 base64url characters of its SHA-256 (132 bits) + `"`. */
export async function etagOf(value: unknown): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(canonicalJson(value))));
  let binary = "";
  for (const byte of digest.subarray(0, 17)) binary += String.fromCharCode(byte);
  return `"${btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "").slice(0, 22)}"`;
}

/** The tags an `If-Match` / `If-None-Match` header lists (`*` as itself); weak ones (`W/"…"`) as their strong form. */
export function listedTags(header: string): string[] {
  if (header.trim() === "*") return ["*"];
  return [...header.matchAll(/(?:W\/)?("[\x21\x23-\x7e\x80-\xff]*")/g)].map((match) => match[1]!);
}
