import { config } from "../config";
import { hostRefusal, TargetRefused } from "../net/outbound";

/*
 * The URL a webhook endpoint is registered with. Besides the outbound guard (lib/net/outbound.ts: no IP literal
 * outside public unicast, no `localhost` name, unless ALLOW_PRIVATE_NETWORK_TARGETS), a webhook is http or https and
 * carries no user name or password, whatever the setting. A host name is only resolved when a delivery is attempted
 * (deliver.ts), on every attempt and every redirect.
 */

/** Checks a webhook URL as it is registered; answers its normalised form or throws TargetRefused saying why. */
export function checkWebhookUrl(raw: string, allowPrivate = config().ALLOW_PRIVATE_NETWORK_TARGETS): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new TargetRefused("must be an absolute http:// or https:// URL");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") throw new TargetRefused("must use https (or http)");
  if (url.username || url.password) throw new TargetRefused("must not contain a user name or password");
  if (!url.hostname) throw new TargetRefused("must name a host");
  const refusal = hostRefusal(url, allowPrivate);
  if (refusal) throw new TargetRefused(refusal);
  url.hash = "";
  return url.href;
}
