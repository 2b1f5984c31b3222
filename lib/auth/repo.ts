import { eq } from "drizzle-orm";
import { db } from "../db/client";
import { users } from "../db/schema/users";

/** What deciding who is calling needs to know about a user. */
export async function findSessionUser(id: string) {
  const [row] = await db()
    .select({ id: users.id, email: users.email, tokenVersion: users.tokenVersion, locale: users.locale, timeZone: users.timeZone })
    .from(users)
    .where(eq(users.id, id))
    .limit(1);
  return row ?? null;
}
