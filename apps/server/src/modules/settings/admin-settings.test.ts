import crypto from 'node:crypto';
import {
  type AdminSettings,
  type PublicSystemConfig,
  SettingsSchema,
  validationEnUS,
  validationZhCN,
} from '@aiplatform/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminSession, auditHeadSeq, auditRowsAfter, createGroupAsAdmin } from '../../../test/admin-helpers.js';
import { type TestApp, createTestApp } from '../../../test/test-app.js';
import { resolveAppSecret } from '../../lib/auth/secrets.js';
import { SecretBox } from '../../lib/auth/secret-box.js';
import { ModelsRepo } from '../models/models.repo.js';
import { ModelsService } from '../models/models.service.js';
import { SETTINGS_CACHE_MS } from './settings.service.js';

const URL = '/api/admin/settings';
const PUBLIC = '/api/public/system-config';
const REDIS_URL = process.env.TEST_REDIS_URL || undefined;

const en = validationEnUS as unknown as Record<string, Record<string, string>>;
const zh = validationZhCN as unknown as Record<string, Record<string, string>>;

/** Adds a model row as the model administration would (no upstream is called). */
async function addModel(t: TestApp, name: string): Promise<void> {
  const box = new SecretBox(resolveAppSecret(t.config.appSecret, t.config.dataDir));
  await new ModelsService(new ModelsRepo(t.db), box, t.clock).create({
    name,
    provider: 'openai_compatible',
    api_key: 'sk-test',
    api_endpoint: 'http://127.0.0.1:9/v1',
  });
}

/** Writes a section behind the application's back, as a hand edit of the database would. */
async function writeRowDirectly(t: TestApp, key: string, value: unknown): Promise<void> {
  await t.db
    .updateTable('system_settings')
    .set({ value: JSON.stringify(value) })
    .where('key', '=', key)
    .execute();
}

describe('admin settings', () => {
  let t: TestApp;
  let admin: string;
  let groupAdmin: string;
  let groupId: number;

  beforeAll(async () => {
    t = await createTestApp();
    admin = (await t.loginAsAdmin()).accessToken;
    groupId = (await createGroupAsAdmin(t, admin)).id;
    groupAdmin = (await adminSession(t, admin, { group_id: groupId })).token;
  });
  afterAll(async () => {
    await t.close();
  });

  describe('GET /api/admin/settings', () => {
    it('answers the whole configuration with its defaults to a super administrator', async () => {
      const res = await t.get<AdminSettings>(URL, admin);
      expect(res.status).toBe(200);
      expect(res.body.data._readOnly).toBe(false);
      const { _readOnly, ...settings } = res.body.data;
      expect(SettingsSchema.parse(settings)).toEqual(settings);
      expect(settings.security).toMatchObject({ session_timeout_minutes: 0, max_login_attempts: 5 });
      expect(settings.credits.enabled).toBe(true);
    });

    it('lets a group administrator read, marked read-only, and nothing more', async () => {
      const res = await t.get<AdminSettings>(URL, groupAdmin);
      expect(res.status).toBe(200);
      expect(res.body.data._readOnly).toBe(true);
      expect(res.body.data.site).toBeDefined();
      const put = await t.put(URL, { site: { name: 'Group admin was here' } }, groupAdmin);
      expect(put.status).toBe(403);
      expect(put.body.error).toBe('FORBIDDEN');
      expect((await t.get<AdminSettings>(URL, admin)).body.data.site.name).not.toBe('Group admin was here');
    });

    it('refuses plain users and anonymous callers', async () => {
      const { session } = await t.signUp();
      expect((await t.get(URL, session.accessToken)).status).toBe(403);
      expect((await t.get(URL)).status).toBe(401);
    });
  });

  describe('PUT /api/admin/settings', () => {
    it('merges a partial update into the stored sections and answers the new settings', async () => {
      await t.put(URL, { site: { name: 'Before', description: 'Kept description' } }, admin);
      const res = await t.put<AdminSettings>(URL, { site: { name: '  Acme AI  ' } }, admin);
      expect(res.status).toBe(200);
      expect(res.body.data._readOnly).toBe(false);
      expect(res.body.data.site).toMatchObject({ name: 'Acme AI', description: 'Kept description' });
      const again = await t.get<AdminSettings>(URL, admin);
      expect(again.body.data.site).toMatchObject({ name: 'Acme AI', description: 'Kept description' });
      expect(again.body.data.user.allow_register).toBe(true);
    });

    it('writes only the sections that changed and audits their before and after', async () => {
      const before = await t.db.selectFrom('system_settings').select(['key', 'updated_at']).execute();
      const seq = await auditHeadSeq(t);
      t.clock.advance(60_000);
      const res = await t.put<AdminSettings>(
        URL,
        { chat: { font_size: 16 }, credits: { enabled: true }, ai: { temperature: 0 } },
        admin,
      );
      expect(res.status).toBe(200);
      const after = await t.db.selectFrom('system_settings').select(['key', 'updated_at']).execute();
      const changedKeys = after
        .filter((row) => before.find((b) => b.key === row.key)?.updated_at !== row.updated_at)
        .map((row) => row.key);
      expect(changedKeys).toEqual(['chat']);

      const rows = await auditRowsAfter(t, seq);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ action: 'settings.update', target_type: 'settings', target_id: null });
      expect(rows[0]?.changes.before).toEqual({ chat: { font_family: 'system-ui', font_size: 14 } });
      expect(rows[0]?.changes.after).toEqual({ chat: { font_family: 'system-ui', font_size: 16 } });
    });

    it('records nothing when nothing changes', async () => {
      const current = (await t.get<AdminSettings>(URL, admin)).body.data;
      const seq = await auditHeadSeq(t);
      const res = await t.put(URL, { site: current.site, chat: current.chat }, admin);
      expect(res.status).toBe(200);
      expect(await auditRowsAfter(t, seq)).toHaveLength(0);
    });

    it('refuses invalid values with translated messages, writing nothing', async () => {
      const seq = await auditHeadSeq(t);
      const body = {
        chat: { font_size: 99 },
        security: { token_expires_in: 'forever' },
        user: { default_credits: -1 },
      };
      const english = await t.put(URL, body, admin, 'en-US');
      expect(english.status).toBe(400);
      expect(english.body.error).toBe('VALIDATION_FAILED');
      expect(english.body.data.errors).toEqual(
        expect.arrayContaining([en.fontSize?.invalid, en.tokenExpiresIn?.invalid, en.defaultCredits?.invalid]),
      );
      const chinese = await t.put(URL, body, admin, 'zh-CN');
      expect(chinese.body.data.errors).toEqual(expect.arrayContaining([zh.fontSize?.invalid]));
      expect(chinese.body.message).not.toBe(english.body.message);
      expect(await auditRowsAfter(t, seq)).toHaveLength(0);
      expect((await t.get<AdminSettings>(URL, admin)).body.data.chat.font_size).not.toBe(99);
    });

    it('saves the documents and knowledge sections, and refuses their bad values', async () => {
      const res = await t.put<AdminSettings>(
        URL,
        { files: { max_document_mb: 8, full_context_share: 0.25 }, knowledge: { embedding_model: ' embed-small ' } },
        admin,
      );
      expect(res.status).toBe(200);
      const saved = (await t.get<AdminSettings>(URL, admin)).body.data;
      expect(saved.files).toEqual({ max_document_mb: 8, full_context_share: 0.25 });
      expect(saved.knowledge).toEqual({ embedding_model: 'embed-small' });

      const bad = await t.put(URL, { files: { max_document_mb: 0, full_context_share: 2 } }, admin, 'en-US');
      expect(bad.status).toBe(400);
      expect(bad.body.data.errors).toEqual(
        expect.arrayContaining([en.maxDocumentMb?.invalid, en.fullContextShare?.invalid]),
      );
      const chinese = await t.put(URL, { files: { max_document_mb: 0 } }, admin, 'zh-CN');
      expect(chinese.body.data.errors).toEqual([zh.maxDocumentMb?.invalid]);
      expect((await t.get<AdminSettings>(URL, admin)).body.data.files.max_document_mb).toBe(8);
    });

    it('refuses a theme colour that is not a hex value', async () => {
      const res = await t.put(URL, { theme: { colors: { primary: 'red; background: url(x)' } } }, admin, 'en-US');
      expect(res.status).toBe(400);
      expect(res.body.data.errors).toContain(en.themeColor?.invalid);
    });

    it('requires the default model to exist', async () => {
      for (const [lang, dict] of [
        ['en-US', en],
        ['zh-CN', zh],
      ] as const) {
        const res = await t.put(URL, { ai: { default_model: 'no-such-model' } }, admin, lang);
        expect(res.status).toBe(400);
        expect(res.body.data.errors).toEqual([dict.defaultModel?.notFound]);
        expect(res.body.message).toBe(dict.defaultModel?.notFound);
      }
      await addModel(t, 'settings-model');
      const ok = await t.put<AdminSettings>(URL, { ai: { default_model: 'settings-model', temperature: 0.3 } }, admin);
      expect(ok.status).toBe(200);
      expect(ok.body.data.ai).toEqual({ default_model: 'settings-model', temperature: 0.3, model_titles: false });
      // Saving the section again (the form sends all of it) does not look the model up again.
      await t.db.deleteFrom('ai_models').where('name', '=', 'settings-model').execute();
      expect((await t.put(URL, { ai: { default_model: 'settings-model', temperature: 0.4 } }, admin)).status).toBe(200);
    });

    it('requires the default group to exist', async () => {
      const missing = await t.put(URL, { user: { default_group_id: 2_000_000 } }, admin, 'en-US');
      expect(missing.status).toBe(400);
      expect(missing.body.data.errors).toEqual([en.group?.notFound]);
      const zhMissing = await t.put(URL, { user: { default_group_id: 2_000_000 } }, admin, 'zh-CN');
      expect(zhMissing.body.data.errors).toEqual([zh.group?.notFound]);
      const ok = await t.put<AdminSettings>(URL, { user: { default_group_id: groupId } }, admin);
      expect(ok.body.data.user.default_group_id).toBe(groupId);
      await t.put(URL, { user: { default_group_id: 1 } }, admin);
    });

    it('drops the homepage from this call: it has its own', async () => {
      const res = await t.put<AdminSettings>(URL, { homepage: { enabled: true, html: '<p>x</p>' } }, admin);
      expect(res.status).toBe(200);
      expect(res.body.data.homepage.html).toBe('');
    });
  });

  describe('propagation', () => {
    it('applies a saved change at once on this instance', async () => {
      expect((await t.get<PublicSystemConfig>(PUBLIC)).body.data.site.name).toBe('Acme AI');
      await t.put(URL, { site: { name: 'Renamed' } }, admin);
      expect((await t.get<PublicSystemConfig>(PUBLIC)).body.data.site.name).toBe('Renamed');
    });

    it('serves a cached copy, and a change made behind its back within the cache lifetime', async () => {
      expect((await t.get<PublicSystemConfig>(PUBLIC)).body.data.site.name).toBe('Renamed');
      const current = (await t.get<AdminSettings>(URL, admin)).body.data.site;
      const written = Date.now();
      await writeRowDirectly(t, 'site', { ...current, name: 'Hand edited' });
      // Still the cached copy right after the write…
      expect((await t.get<PublicSystemConfig>(PUBLIC)).body.data.site.name).toBe('Renamed');
      // …and the new value once the cache lifetime has passed, in real time.
      let seen = '';
      while (Date.now() - written < SETTINGS_CACHE_MS + 500) {
        seen = (await t.get<PublicSystemConfig>(PUBLIC)).body.data.site.name;
        if (seen === 'Hand edited') break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(seen).toBe('Hand edited');
      expect(Date.now() - written).toBeLessThan(SETTINGS_CACHE_MS + 500);
    });

    it('follows the injected clock for the cache lifetime', async () => {
      expect((await t.get<PublicSystemConfig>(PUBLIC)).body.data.site.name).toBe('Hand edited');
      const current = (await t.get<AdminSettings>(URL, admin)).body.data.site;
      await writeRowDirectly(t, 'site', { ...current, name: 'Clock moved' });
      t.clock.advance(SETTINGS_CACHE_MS + 1);
      expect((await t.get<PublicSystemConfig>(PUBLIC)).body.data.site.name).toBe('Clock moved');
    });
  });
});

describe.skipIf(!REDIS_URL)('settings propagation between two instances sharing Redis', () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    a = await createTestApp({ config: { redisUrl: REDIS_URL, redisPrefix: `test-${crypto.randomUUID()}:` } });
    b = await a.sibling();
  });
  afterAll(async () => {
    await b.app.close();
    await a.close();
  });

  it('clears the other instance cache through Redis well before it would expire', async () => {
    const admin = (await a.loginAsAdmin()).accessToken;
    const primed = Date.now();
    expect((await b.get<PublicSystemConfig>(PUBLIC)).body.data.site.name).toBe('');
    expect((await a.put(URL, { site: { name: 'Shared' } }, admin)).status).toBe(200);
    let seen = '';
    while (Date.now() - primed < SETTINGS_CACHE_MS) {
      seen = (await b.get<PublicSystemConfig>(PUBLIC)).body.data.site.name;
      if (seen === 'Shared') break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    // Seen while b's copy from `primed` was still within its lifetime: only the event explains it.
    expect(seen).toBe('Shared');
    expect(Date.now() - primed).toBeLessThan(SETTINGS_CACHE_MS);
  });

  it('applies a change written through the other instance to every later request there', async () => {
    const admin = (await b.loginAsAdmin()).accessToken;
    expect((await b.put(URL, { security: { rate_limit_enabled: false } }, admin)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const res = await a.get<AdminSettings>(URL, (await a.loginAsAdmin()).accessToken);
    expect(res.body.data.security.rate_limit_enabled).toBe(false);
  });
});
