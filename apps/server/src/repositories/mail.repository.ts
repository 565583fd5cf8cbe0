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
  close(): void;
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
  return {
    async send(message) {
      const info = await transport.sendMail({ from, ...message });
      await fs.mkdir(directory, { recursive: true });
      const file = path.join(
        directory,
        `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID()}.eml`,
      );
      await fs.writeFile(file, info.message as Buffer);
      onWritten(file, message);
    },
    close: () => {
      transport.close();
    },
  };
}

export function smtpMailer(smtpUrl: string, from: string): Mailer {
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    async send(message) {
      await transport.sendMail({ from, ...message });
    },
    close: () => {
      transport.close();
    },
  };
}
