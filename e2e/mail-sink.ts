/**
 * The mail server of the end-to-end runs (started by playwright.config.ts beside Spolu, which sends to it with
 * EMAIL_TRANSPORT=smtp): the integration tests' SMTP server (tests/integration/smtp-sink.ts) on E2E_SMTP_PORT, writing
 * each message it accepts as a JSON file into E2E_MAIL_DIR, where specs read them (e2e/mailbox.ts).
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { startSmtpSink } from "../tests/integration/smtp-sink";

const dir = process.env.E2E_MAIL_DIR!;
let count = 0;
const sink = await startSmtpSink({
  port: Number(process.env.E2E_SMTP_PORT),
  onMessage(message) {
    const { envelope, subject, text, html } = message;
    const name = `${Date.now()}-${String(++count).padStart(6, "0")}.json`;
    writeFileSync(path.join(dir, name), JSON.stringify({ to: envelope.to, subject, text, html }));
  },
});
process.on("SIGTERM", () => void sink.close().then(() => process.exit(0)));
