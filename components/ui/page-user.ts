import { cache } from "react";
import { pageActor } from "@/components/auth/page-session";
import { getMe } from "@/lib/accounts/service";

/**
 * The signed-in visitor's account (name, email, admin) or null, read once per request however many server
 * components of the page ask (the header and the home page both do).
 */
export const pageUser = cache(async () => {
  const actor = await pageActor();
  return actor && getMe(actor);
});
