import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';
import type { Mail, Outbox } from '../../lib/runtime/mailer.js';

/** The embedded outbox: mail kept in `outbox_mails` when no SMTP server is configured. */
export class OutboxRepo implements Outbox {
  constructor(private readonly db: Kysely<Database>) {}

  async store(mail: Mail, at: Date): Promise<void> {
    await this.db
      .insertInto('outbox_mails')
      .values({ to_address: mail.to, subject: mail.subject, body: mail.text, created_at: at.toISOString() })
      .execute();
  }
}
