import { hostRefusal, TargetRefused, type TargetPolicy } from "../net/addresses";
import { policyFor } from "../net/client";

/*
 * The URL a webhook endpoint is registered with. Besides the outbound rules (lib/net/addresses.ts: no IP literal
 * outside public unicast, no `localhost` name, unless ALLOW_PRIVATE_NETWORK_TARGETS allows them for webhooks), a
 * webhook is http or https and carries no user name or password, whatever the setting. A host name is only
 * resolved when a delivery is attempted (lib/net/client.ts), on every attempt and every redirect.
 */

/** Checks a webhook URL as it is registered; answers its normalised form or throws TargetRefused saying why. */
export function checkWebhookUrl(raw: string, policy: TargetPolicy = policyFor("webhooks")): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new TargetRefused("must be an absolute http:// or https:// URL");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") throw new TargetRefused("must use https (or http)");
  if (url.username || url.password) throw new TargetRefused("must not contain a user name or password");
  if (!url.hostname) throw new TargetRefused("must name a host");
  const refusal = hostRefusal(url, policy);
  if (refusal) throw new TargetRefused(refusal);
  url.hash = "";
  return url.href;
}
