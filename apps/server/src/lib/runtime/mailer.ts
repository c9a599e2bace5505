import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';

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

/**
 * Without SMTP the mail goes to the embedded outbox: stored in `outbox_mails` and
 * logged, so an administrator of a fresh install can still read sign-in codes.
 */
export function createOutboxMailer(db: Kysely<Database>, log: FastifyBaseLogger): Mailer {
  return {
    async send(mail) {
      await db
        .insertInto('outbox_mails')
        .values({
          to_address: mail.to,
          subject: mail.subject,
          body: mail.text,
          created_at: new Date().toISOString(),
        })
        .execute();
      log.info({ to: mail.to, subject: mail.subject, body: mail.text }, 'mail stored in outbox (SMTP_URL not set)');
    },
  };
}
