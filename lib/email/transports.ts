import { createTransport } from "nodemailer";
import { config, type Config } from "../config";
import { log } from "../log";

/*
 * How an email leaves the service, chosen by EMAIL_TRANSPORT:
 * - `log` (the default, nothing to set up): writes who it is for and its subject to the log at info level and sends
 *   nothing; it counts as sent.
 * - `smtp`: nodemailer on SMTP_URL (`smtp://user:pass@host:587`, or `smtps://` for TLS from the start), with
 *   connection, greeting and socket timeouts so that a silent server cannot hold a request.
 * - `resend`: Resend's HTTP API with RESEND_API_KEY. The `resend` package reads its address from
 *   process.env.RESEND_BASE_URL unless the constructor's `baseUrl` option is given; we always give it, from
 *   config().RESEND_BASE_URL, so that the one parsed configuration decides.
 * A transport throws an EmailTransportError, saying why, when the email was not accepted.
 */

export type TransportName = Config["EMAIL_TRANSPORT"];

export interface OutgoingEmail {
  /** Our id for this email (the email log entry's); Resend gets it as the idempotency key. */
  id: string;
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** `admin`, `personal_reminder`, `daily_summary`... (for the log). */
  kind: string;
}

export interface EmailTransport {
  readonly name: TransportName;
  /** Hands the email over; answers the provider's message id. Throws EmailTransportError when it was refused. */
  send(email: OutgoingEmail): Promise<{ providerMessageId: string | null }>;
}

export class EmailTransportError extends Error {
  override name = "EmailTransportError";
}

const SMTP_CONNECTION_TIMEOUT_MS = 10_000;
const SMTP_GREETING_TIMEOUT_MS = 10_000;
const SMTP_SOCKET_TIMEOUT_MS = 30_000;
const RESEND_TIMEOUT_MS = 30_000;
const REASON_MAX = 500;

const clip = (text: string) => (text.length > REASON_MAX ? `${text.slice(0, REASON_MAX - 1)}…` : text);

const logTransport: EmailTransport = {
  name: "log",
  async send(email) {
    log.info("Email not sent (EMAIL_TRANSPORT=log)", {
      emailId: email.id,
      to: email.to,
      subject: email.subject,
      kind: email.kind,
    });
    return { providerMessageId: null };
  },
};

/** What nodemailer's error says about the refusal: the server's reply when there was one, else the error. */
function smtpReason(error: unknown): string {
  const failure = error as { response?: string; responseCode?: number; code?: string; message?: string };
  if (failure.response) return clip(`The mail server refused the email: ${failure.response}`);
  const code = failure.code ? ` (${failure.code})` : "";
  return clip(`Could not deliver to the mail server${code}: ${failure.message ?? String(error)}`);
}

function smtpTransport(url: string, from: string): EmailTransport {
  // Not pooled: each email is one SMTP session, so nothing stays open between sends or after shutdown.
  const transporter = createTransport({
    url,
    connectionTimeout: SMTP_CONNECTION_TIMEOUT_MS,
    greetingTimeout: SMTP_GREETING_TIMEOUT_MS,
    socketTimeout: SMTP_SOCKET_TIMEOUT_MS,
  });
  return {
    name: "smtp",
    async send(email) {
      try {
        const info = await transporter.sendMail({
          from,
          to: email.to,
          subject: email.subject,
          text: email.text,
          html: email.html,
        });
        return { providerMessageId: info.messageId ?? null };
      } catch (error) {
        throw new EmailTransportError(smtpReason(error));
      }
    },
  };
}

function resendTransport(apiKey: string, baseUrl: string, from: string): EmailTransport {
  // The resend package costs about 8 MB of memory: loaded with the first email, and only with this transport.
  const client = import("resend").then(({ Resend }) => new Resend(apiKey, { baseUrl: baseUrl.replace(/\/+$/, "") }));
  return {
    name: "resend",
    async send(email) {
      const { data, error } = await (
        await client
      ).emails.send(
        { from, to: email.to, subject: email.subject, text: email.text, ...(email.html !== undefined && { html: email.html }) },
        { idempotencyKey: email.id, signal: AbortSignal.timeout(RESEND_TIMEOUT_MS) },
      );
      if (error) {
        const status = error.statusCode ? `${error.statusCode} ` : "";
        throw new EmailTransportError(clip(`Resend refused the email (${status}${error.name}): ${error.message}`));
      }
      return { providerMessageId: data?.id ?? null };
    },
  };
}

/** The transport the configuration names (read on every send, so that it follows the loaded configuration). */
export function emailTransport(settings: Config = config()): EmailTransport {
  switch (settings.EMAIL_TRANSPORT) {
    case "smtp":
      // The configuration schema requires SMTP_URL for smtp and RESEND_API_KEY for resend.
      return smtpTransport(settings.SMTP_URL!, settings.EMAIL_FROM);
    case "resend":
      return resendTransport(settings.RESEND_API_KEY!, settings.RESEND_BASE_URL, settings.EMAIL_FROM);
    case "log":
      return logTransport;
  }
}
