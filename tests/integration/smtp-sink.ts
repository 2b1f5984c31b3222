/**
 * A real SMTP server on loopback (the smtp-server package) that keeps every message it accepts, parsed by
 * mailparser, for tests to read. It can refuse recipients the way a mail server does: with a 5xx reply to RCPT TO.
 */
import type { AddressInfo } from "node:net";
import { simpleParser, type AddressObject, type ParsedMail } from "mailparser";
import { SMTPServer } from "smtp-server";

export interface ReceivedMail {
  /** The SMTP envelope: MAIL FROM and every RCPT TO it accepted. */
  envelope: { from: string; to: string[] };
  parsed: ParsedMail;
  /** The parsed From and To headers' addresses, lower-cased. */
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
}

export interface SmtpSink {
  port: number;
  /** `smtp://127.0.0.1:<port>`, for SMTP_URL. */
  url: string;
  /** Every message accepted, in the order they arrived. */
  messages: ReceivedMail[];
  /** The messages whose envelope goes to `address`. */
  to(address: string): ReceivedMail[];
  close(): Promise<void>;
}

export interface SmtpSinkOptions {
  /** A recipient for which this answers with a reply (e.g. "550 No such user here") is refused at RCPT TO. */
  refuse?: (address: string) => { code: number; message: string } | null;
  /** The port to listen on (a free one when not given). */
  port?: number;
  /** Called with each message once it is stored (before the sender hears "sent"). */
  onMessage?: (message: ReceivedMail) => void;
}

const addresses = (value: AddressObject | AddressObject[] | undefined) =>
  [value ?? []].flat().flatMap((object) => object.value.map((entry) => (entry.address ?? "").toLowerCase()));

export async function startSmtpSink(options: SmtpSinkOptions = {}): Promise<SmtpSink> {
  const messages: ReceivedMail[] = [];
  const server = new SMTPServer({
    // Plain SMTP on loopback: no STARTTLS (the client would refuse our self-signed certificate) and no login.
    disabledCommands: ["STARTTLS", "AUTH"],
    authOptional: true,
    logger: false,
    onRcptTo(address, _session, callback) {
      const refusal = options.refuse?.(address.address.toLowerCase());
      if (!refusal) return callback();
      callback(Object.assign(new Error(refusal.message), { responseCode: refusal.code }));
    },
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          const message: ReceivedMail = {
            envelope: {
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address.toLowerCase() : "",
              to: session.envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase()),
            },
            parsed,
            from: addresses(parsed.from)[0] ?? "",
            to: addresses(parsed.to),
            subject: parsed.subject ?? "",
            text: parsed.text ?? "",
            html: typeof parsed.html === "string" ? parsed.html : "",
          };
          messages.push(message);
          options.onMessage?.(message);
          // Answered once the message is stored: the sender's "sent" means the test can read it.
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;
  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    messages,
    to: (address) => messages.filter((message) => message.envelope.to.includes(address.toLowerCase())),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
