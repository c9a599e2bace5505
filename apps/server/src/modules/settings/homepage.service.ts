import type { Homepage, HomepageBody, PublicHomepage } from '@aiplatform/contracts';
import { InputError } from '../../lib/http/errors.js';
import type { Actor, AdminContext } from '../../policies/actor.js';
import { authorize } from '../../policies/policy.js';
import type { AdminTransactions } from '../audit/admin-tx.js';
import { diff } from '../audit/redact.js';
import { sanitizeHomepageHtml } from './homepage-sanitize.js';
import type { SettingsRepo } from './settings.repo.js';
import { type SettingsService, parseStoredSettings } from './settings.service.js';

/** The stored section's limit (SettingsSchema): longer text would not read back. */
const HTML_MAX = 200_000;

/** The custom homepage: stored as the `homepage` settings section, cleaned on save. */
export class HomepageService {
  constructor(private readonly d: { settings: SettingsService; repo: SettingsRepo; tx: AdminTransactions }) {}

  async get(actor: Actor): Promise<Homepage> {
    authorize(actor, 'settings.read');
    return { ...(await this.d.settings.getSettings()).homepage };
  }

  async update(ctx: AdminContext, body: HomepageBody): Promise<Homepage> {
    authorize(ctx.actor, 'settings.manage');
    const html = body.html === undefined ? undefined : sanitizeHomepageHtml(body.html);
    // Escaping can lengthen text; a section over the limit would be reset when read back.
    if (html !== undefined && html.length > HTML_MAX) throw new InputError(['validation.homepage.max']);
    const homepage = await this.d.tx.run(ctx, async (trx, now) => {
      const before = parseStoredSettings(await this.d.repo.lockAll(trx)).homepage;
      const after: Homepage = { enabled: body.enabled ?? before.enabled, html: html ?? before.html, updated_at: now };
      await this.d.repo.writeSection('homepage', after, now, trx);
      const changes = diff(before, after);
      return {
        result: after,
        audit: { action: 'homepage.update', targetType: 'settings', targetId: 'homepage', ...changes },
      };
    });
    await this.d.settings.changed();
    return homepage;
  }

  /** What visitors get: the page only while it is switched on. */
  async publicHomepage(): Promise<PublicHomepage> {
    const { homepage } = await this.d.settings.getSettings();
    return { enabled: homepage.enabled, html: homepage.enabled ? homepage.html : '' };
  }

  /** The homepage as a document of its own, for a sandboxed frame. */
  async document(): Promise<string> {
    const [{ html }, { site }] = await Promise.all([this.publicHomepage(), this.d.settings.getSettings()]);
    return [
      '<!doctype html>',
      '<html><head><meta charset="utf-8">',
      '<meta name="viewport" content="width=device-width, initial-scale=1">',
      `<title>${escapeText(site.name)}</title>`,
      '<style>body{margin:0;padding:16px;font-family:system-ui,sans-serif;line-height:1.6}img{max-width:100%}</style>',
      `</head><body>${html}</body></html>`,
    ].join('\n');
  }
}

function escapeText(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
