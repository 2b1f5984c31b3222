import type { Problem } from "@/lib/api-client/client";

/*
 * What the pages make of the API's answers (they call it through lib/api-client/client.ts): the fields a 400 problem
 * names, and why a WebAuthn ceremony failed.
 */

/** The body fields a 400 problem names (`/email` → `email`). */
export function invalidFields(body: unknown): string[] {
  const errors = (body as Problem | null)?.errors ?? [];
  return errors.map(({ pointer }) => pointer.replace(/^\//, "").split("/")[0] ?? "").filter(Boolean);
}

/**
 * Why a WebAuthn ceremony in the browser failed: the person cancelled or let it time out, the authenticator
 * already holds a credential for this account (registration), the browser cannot do it, or anything else.
 * @simplewebauthn/browser keeps the DOMException's name on its WebAuthnError.
 */
export function ceremonyFailure(error: unknown): "cancelled" | "alreadyRegistered" | "unsupported" | "failed" {
  const name = error instanceof Error ? error.name : "";
  const code = (error as { code?: string } | null)?.code;
  if (code === "ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED" || name === "InvalidStateError") return "alreadyRegistered";
  if (code === "ERROR_CEREMONY_ABORTED" || name === "NotAllowedError" || name === "AbortError") return "cancelled";
  if (name === "NotSupportedError") return "unsupported";
  return "failed";
}

/**
 * A WebAuthn response from @simplewebauthn/browser as the API's schema types it: its extension results are an
 * interface there, a plain JSON object here.
 */
export function withExtensions<R extends { clientExtensionResults: object }>(
  response: R,
): Omit<R, "clientExtensionResults"> & { clientExtensionResults: Record<string, unknown> } {
  const clientExtensionResults: Record<string, unknown> = { ...response.clientExtensionResults };
  return { ...response, clientExtensionResults };
}

/** The localized message of each field a 400 problem names, among those the form knows (`messages`). */
export function fieldErrors<K extends string>(body: unknown, messages: Record<K, string>): Partial<Record<K, string>> {
  const fields: Partial<Record<K, string>> = {};
  for (const field of invalidFields(body)) if (field in messages) fields[field as K] = messages[field as K];
  return fields;
}
