import { headers } from "next/headers";
import { cache } from "react";
import { actorFromToken, tokenFromRequest, type Actor } from "@/lib/auth/actor";
import { openDatabase } from "@/lib/db/client";

/**
 * The signed-in visitor of a page, or null: the session cookie carries the same JWT the API reads (set by
 * `POST /auth/login`, `/auth/register` and `/webauthn/auth/verify`), checked the same way (user exists, token
 * not revoked). For server components only; asked once per request however many components ask.
 */
export const pageActor = cache(async (): Promise<Actor | null> => {
  const token = tokenFromRequest(undefined, (await headers()).get("cookie") ?? undefined);
  if (!token) return null;
  await openDatabase();
  return actorFromToken(token);
});
