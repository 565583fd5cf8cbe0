import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** Sends e-mail. Embedded mode writes .eml files; scaled mode speaks SMTP. */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
  /** Resolves once the messages being sent are out (or failed), then closes the transport. */
  close(): Promise<void>;
}

/**
 * Mail goes out after the answer (the services do not await it): closing waits for what is
 * in flight, so that a shutdown does not cut a message half-written.
 */
function trackingSends(
  send: (message: MailMessage) => Promise<void>,
  closeTransport: () => void,
): Mailer {
  const inFlight = new Set<Promise<void>>();
  return {
    send(message) {
      const sending = send(message);
      const settled = sending.then(
        () => undefined,
        () => undefined,
      );
      inFlight.add(settled);
      void settled.then(() => inFlight.delete(settled));
      return sending;
    },
    async close() {
      await Promise.all(inFlight);
      closeTransport();
    },
  };
}

/**
 * With SMTP_URL unset, each message is written as an RFC 822 .eml file under
 * DATA_DIR/mail/, so a person on the default set-up can open it (and tests can read it).
 */
export function fileMailer(
  directory: string,
  from: string,
  onWritten: (file: string, message: MailMessage) => void,
): Mailer {
  const transport = nodemailer.createTransport({
    streamTransport: true,
    buffer: true,
    newline: 'unix',
  });
  return trackingSends(
    async (message) => {
      const info = await transport.sendMail({ from, ...message });
      await fs.mkdir(directory, { recursive: true });
      const file = path.join(
        directory,
        `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID()}.eml`,
      );
      // Written whole, then named .eml: whoever lists the folder never reads half a message.
      const partial = `${file}.partial`;
      await fs.writeFile(partial, info.message as Buffer);
      await fs.rename(partial, file);
      onWritten(file, message);
    },
    () => {
      transport.close();
    },
  );
}

export function smtpMailer(smtpUrl: string, from: string): Mailer {
  const transport = nodemailer.createTransport(smtpUrl);
  return trackingSends(
    async (message) => {
      await transport.sendMail({ from, ...message });
    },
    () => {
      transport.close();
    },
  );
}
