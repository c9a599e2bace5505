import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** One message as the sink received it over SMTP. */
export interface SunkMail {
  /** Envelope recipients (RCPT TO), lower-cased. */
  to: string[];
  subject: string;
  text: string;
  /** The first 6-digit number in the subject, else in the body. */
  code: string | undefined;
  raw: string;
}

/** Decodes RFC 2047 encoded words (`=?UTF-8?B?…?=`, `=?UTF-8?Q?…?=`) in a header value. */
function decodeHeader(value: string): string {
  const joined = value.replace(/\?=\s+=\?/g, '?==?');
  return joined.replace(/=\?([^?]+)\?([bBqQ])\?([^?]*)\?=/g, (_, _charset: string, enc: string, data: string) =>
    enc.toUpperCase() === 'B'
      ? Buffer.from(data, 'base64').toString('utf8')
      : decodeQuotedPrintable(data.replace(/_/g, ' ')),
  );
}

function decodeQuotedPrintable(text: string): string {
  const bytes = text
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-Fa-f]{2})/g, (_, hex: string) => `%${hex}`)
    .replace(/%(?![0-9A-Fa-f]{2})/g, '%25');
  try {
    return decodeURIComponent(bytes);
  } catch {
    return text;
  }
}

/** Splits a raw single-part message into unfolded headers and a decoded text body. */
export function parseMail(raw: string, rcptTo: string[]): SunkMail {
  const split = raw.search(/\r?\n\r?\n/);
  const head = split === -1 ? raw : raw.slice(0, split);
  const bodyRaw = split === -1 ? '' : raw.slice(split).replace(/^\r?\n\r?\n/, '');
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  const encoding = (headers.get('content-transfer-encoding') ?? '7bit').toLowerCase();
  const text =
    encoding === 'base64'
      ? Buffer.from(bodyRaw.replace(/\s+/g, ''), 'base64').toString('utf8')
      : encoding === 'quoted-printable'
        ? decodeQuotedPrintable(bodyRaw)
        : bodyRaw;
  const subject = decodeHeader(headers.get('subject') ?? '');
  const code = /\b(\d{6})\b/.exec(subject)?.[1] ?? /\b(\d{6})\b/.exec(text)?.[1];
  return { to: rcptTo.map((a) => a.toLowerCase()), subject, text, code, raw };
}

/**
 * A real SMTP server on 127.0.0.1 and a random port (no TLS, no auth) that keeps every
 * message, so sign-in codes travel the same way they do in production: nodemailer → SMTP.
 */
export class SmtpSink {
  readonly messages: SunkMail[] = [];
  private readonly read = new Map<string, number>();
  private readonly waiters = new Set<() => void>();
  private server: SMTPServer | undefined;
  port = 0;

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  async start(): Promise<this> {
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      closeTimeout: 1000,
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          this.messages.push(
            parseMail(
              Buffer.concat(chunks).toString('utf8'),
              session.envelope.rcptTo.map((r) => r.address),
            ),
          );
          for (const wake of this.waiters) wake();
          callback();
        });
      },
    });
    await new Promise<void>((resolve, reject) => {
      server.server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    this.port = (server.server.address() as AddressInfo).port;
    this.server = server;
    return this;
  }

  /** Messages addressed to `email`, oldest first. */
  mailsTo(email: string): SunkMail[] {
    const to = email.toLowerCase();
    return this.messages.filter((m) => m.to.includes(to));
  }

  /** The next message to `email` not yet returned by this method (waits up to `timeoutMs`). */
  async nextMailTo(email: string, timeoutMs = 5000): Promise<SunkMail> {
    const key = email.toLowerCase();
    const take = () => {
      const seen = this.read.get(key) ?? 0;
      const mail = this.mailsTo(key)[seen];
      if (mail) this.read.set(key, seen + 1);
      return mail;
    };
    const ready = take();
    if (ready) return ready;
    return new Promise<SunkMail>((resolve, reject) => {
      const wake = () => {
        const mail = take();
        if (!mail) return;
        clearTimeout(timer);
        this.waiters.delete(wake);
        resolve(mail);
      };
      const timer = setTimeout(() => {
        this.waiters.delete(wake);
        reject(new Error(`no mail to ${email} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.waiters.add(wake);
    });
  }

  /** The 6-digit code of the next unread message to `email`. */
  async waitForCode(email: string, timeoutMs?: number): Promise<string> {
    const mail = await this.nextMailTo(email, timeoutMs);
    if (!mail.code) throw new Error(`mail to ${email} carries no 6-digit code: ${mail.subject}`);
    return mail.code;
  }

  async close(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

export async function startSmtpSink(): Promise<SmtpSink> {
  return new SmtpSink().start();
}
