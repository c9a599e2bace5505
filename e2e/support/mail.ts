import fs from 'node:fs';
import path from 'node:path';

/** Waits for the newest sign-in code mailed to an address (through the real SMTP sink). */
export async function waitForCode(email: string, after = 0, timeoutMs = 15_000): Promise<string> {
  const dir = process.env.E2E_MAIL_DIR;
  if (!dir) throw new Error('E2E_MAIL_DIR is not set');
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const files = fs
      .readdirSync(dir)
      .filter((f) => Number(f.split('-')[0]) >= after)
      .sort();
    for (const f of files.reverse()) {
      const mail = JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as { to: string[]; text: string };
      const code = /(?<!\d)(\d{6})(?!\d)/.exec(mail.text)?.[1];
      if (mail.to.includes(email.toLowerCase()) && code) return code;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no code mailed to ${email}`);
}
