import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
}

/** Real delivery through SMTP_URL (any SMTP server; `smtps://` for TLS). */
export function createSmtpMailer(smtpUrl: string, from: string): Mailer {
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    async send(mail) {
      await transport.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text });
    },
  };
}

/** Where undelivered mail is kept (the `outbox_mails` table). */
export interface Outbox {
  store(mail: Mail, at: Date): Promise<void>;
}

/**
 * Without SMTP the mail goes to the embedded outbox: stored and logged, so an
 * administrator of a fresh install can still read sign-in codes.
 */
export function createOutboxMailer(outbox: Outbox, log: FastifyBaseLogger): Mailer {
  return {
    async send(mail) {
      await outbox.store(mail, new Date());
      log.info({ to: mail.to, subject: mail.subject, body: mail.text }, 'mail stored in outbox (SMTP_URL not set)');
    },
  };
}
