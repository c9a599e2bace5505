import { type StorageUsage, STORAGE_LIMITS } from '@aiplatform/contracts';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { adminSession } from '../../../test/admin-helpers.js';
import { PNG_1PX, type TestApp, createTestApp } from '../../../test/test-app.js';
import { filesIn, pngOf, recordImage, uploadAvatar, uploadImage } from '../../../test/upload-helpers.js';

const SETTINGS = '/api/admin/settings';
const USAGE = '/api/admin/settings/storage-usage';
const MIB = 1024 * 1024;

describe('the site-wide storage budget', () => {
  let t: TestApp;
  let superToken: string;
  /** An account whose recorded images fill the site (rows only: the budget counts rows). */
  let fillerId: number;

  beforeAll(async () => {
    t = await createTestApp();
    superToken = (await t.loginAsAdmin()).accessToken;
    fillerId = (await t.signUp()).creds.id;
  });
  afterAll(async () => {
    await t.close();
  });

  const setStorage = async (storage: Record<string, number>) =>
    expect((await t.put(SETTINGS, { storage }, superToken)).status).toBe(200);
  const usage = async () => (await t.get<StorageUsage>(USAGE, superToken)).body.data;
  /** Records images until exactly `free` bytes of the budget are left. */
  async function leaveFree(free: number) {
    const u = await usage();
    await recordImage(t, fillerId, u.budget_bytes - u.used_bytes - free);
  }
  const token = async () => (await t.signUp()).session.accessToken;

  it('has a 10 GB budget, an alert at 90 % and 200 MB per address and hour by default', async () => {
    const res = await t.get<{ storage: unknown }>(SETTINGS, superToken);
    expect(res.body.data.storage).toEqual({ budget_mb: 10_240, alert_percent: 90, address_mb_per_hour: 200 });
    expect(STORAGE_LIMITS.budgetMbDefault).toBe(10_240);
  });

  it('refuses out-of-range storage settings with translated messages, and keeps the stored ones', async () => {
    for (const [storage, en, zh] of [
      [{ budget_mb: -1 }, 'The storage budget must be a whole number of MB', '存储总量上限须为'],
      [{ alert_percent: 101 }, 'The storage alert share must be a whole number from 0 to 100', '存储提醒比例须为'],
      [
        { address_mb_per_hour: 1.5 },
        'The upload limit per address must be a whole number of MB',
        '每个地址的上传上限须为',
      ],
    ] as const) {
      const english = await t.put(SETTINGS, { storage }, superToken, 'en-US');
      expect(english.status).toBe(400);
      expect(english.body.data.errors?.[0]).toContain(en);
      expect((await t.put(SETTINGS, { storage }, superToken, 'zh-CN')).body.data.errors?.[0]).toContain(zh);
    }
    const res = await t.get<{ storage: unknown }>(SETTINGS, superToken);
    expect(res.body.data.storage).toEqual({ budget_mb: 10_240, alert_percent: 90, address_mb_per_hour: 200 });
  });

  describe('with a budget of 1 MB', () => {
    beforeEach(async () => {
      await t.db.deleteFrom('files').execute();
      await t.db.updateTable('users').set({ avatar_url: null, avatar_bytes: 0 }).execute();
      await setStorage({ budget_mb: 1, alert_percent: 0, address_mb_per_hour: 0 });
    });

    it('refuses any upload past it with a translated 413, storing neither row nor bytes', async () => {
      await leaveFree(PNG_1PX.length);
      expect((await uploadImage(t, await token())).status).toBe(200);
      expect((await usage()).used_bytes).toBe(MIB);
      const rows = (await t.db.selectFrom('files').select('id').execute()).length;
      const onDisk = filesIn(t, 'uploads');

      const someoneElse = await t.signUp();
      const refused = await uploadImage(t, someoneElse.session.accessToken, PNG_1PX, { lang: 'en-US' });
      expect(refused.status).toBe(413);
      expect(refused.body.error).toBe('SITE_STORAGE_FULL');
      expect(refused.body.message).toBe(
        "The site's storage for uploads is full; no new images can be stored until an administrator makes room",
      );
      const chinese = await uploadImage(t, someoneElse.session.accessToken, PNG_1PX, { lang: 'zh-CN' });
      expect(chinese.body.message).toBe('站点的上传存储空间已满，在管理员腾出空间之前无法再保存新图片');
      // An avatar is refused alike.
      const avatar = await uploadAvatar(t, someoneElse.session.accessToken);
      expect(avatar.status).toBe(413);
      expect(avatar.body.error).toBe('SITE_STORAGE_FULL');
      expect((await t.userRow(someoneElse.creds.id)).avatar_url).toBeNull();
      expect(filesIn(t, 'avatars')).toEqual([]);
      expect((await t.db.selectFrom('files').select('id').execute()).length).toBe(rows);
      expect(filesIn(t, 'uploads')).toEqual(onDisk);

      // A larger budget applies at once; none at all (0) refuses nothing.
      await setStorage({ budget_mb: 2 });
      expect((await uploadImage(t, someoneElse.session.accessToken)).status).toBe(200);
      await setStorage({ budget_mb: 0 });
      await leaveFree(-5 * MIB);
      expect((await uploadImage(t, someoneElse.session.accessToken)).status).toBe(200);
    });

    it('lets simultaneous uploads from many accounts fill it exactly, never past it', async () => {
      const tokens = await Promise.all(Array.from({ length: 6 }, token));
      await leaveFree(2 * PNG_1PX.length);
      const onDisk = filesIn(t, 'uploads').length;
      const results = await Promise.all(tokens.map((tk) => uploadImage(t, tk)));
      expect(results.map((r) => r.status).sort()).toEqual([200, 200, 413, 413, 413, 413]);
      expect(results.filter((r) => r.body.error === 'SITE_STORAGE_FULL')).toHaveLength(4);
      expect((await usage()).used_bytes).toBe(MIB);
      expect(filesIn(t, 'uploads')).toHaveLength(onDisk + 2);
    });

    it('counts avatars, a replaced avatar only by what it adds', async () => {
      const { creds, session } = await t.signUp();
      expect((await uploadAvatar(t, session.accessToken, pngOf(1000))).status).toBe(200);
      expect(await usage()).toMatchObject({ images_bytes: 0, avatars_bytes: 1000, used_bytes: 1000 });
      await leaveFree(0);
      // Smaller than the avatar it replaces: fits even with the site full.
      const smaller = await uploadAvatar(t, session.accessToken, pngOf(900));
      expect(smaller.status).toBe(200);
      expect(await usage()).toMatchObject({ avatars_bytes: 900, used_bytes: MIB - 100 });
      // 200 bytes more than the one it replaces, with 100 free: refused, the avatar kept.
      const larger = await uploadAvatar(t, session.accessToken, pngOf(1100), { lang: 'en-US' });
      expect(larger.status).toBe(413);
      expect(larger.body.error).toBe('SITE_STORAGE_FULL');
      expect((await t.userRow(creds.id)).avatar_url).toBe(smaller.body.data.url);
      // The replaced file goes in the background; the refused one never stays.
      await expect.poll(() => filesIn(t, 'avatars')).toEqual([smaller.body.data.url.split('/').at(-1)]);
      // An avatar elsewhere (set by hand, not uploaded) holds none of our bytes.
      await t.db
        .updateTable('users')
        .set({ avatar_url: 'https://example.com/a.png' })
        .where('id', '=', creds.id)
        .execute();
      expect((await usage()).avatars_bytes).toBe(0);
    });

    it(
      'reads nothing outside an upload’s transaction while it runs (SQLite has one connection)',
      { timeout: 15_000 },
      async () => {
        // Every settings read goes to the database, as when the cached copy has just expired:
        // a read from inside the transaction would wait for the connection the transaction holds.
        const read = t.settings.getSettings.bind(t.settings);
        const spy = vi.spyOn(t.settings, 'getSettings').mockImplementation(() => {
          t.settings.invalidate();
          return read();
        });
        try {
          const { session } = await t.signUp();
          expect((await uploadImage(t, session.accessToken)).status).toBe(200);
          expect((await uploadAvatar(t, session.accessToken)).status).toBe(200);
          expect(spy).toHaveBeenCalled();
        } finally {
          spy.mockRestore();
        }
      },
    );

    it('shows used bytes against the budget to both administrator roles, to nobody else', async () => {
      await recordImage(t, fillerId, 3000);
      const { token: groupAdmin } = await adminSession(t, superToken);
      for (const tk of [superToken, groupAdmin]) {
        const res = await t.get<StorageUsage>(USAGE, tk);
        expect(res.status).toBe(200);
        expect(res.body.data).toEqual({
          used_bytes: 3000,
          images_bytes: 3000,
          avatars_bytes: 0,
          budget_bytes: MIB,
          alert_percent: 0,
        });
      }
      const plain = await t.get(USAGE, await token());
      expect(plain.status).toBe(403);
      expect(plain.body.error).toBe('FORBIDDEN');
    });
  });

  describe('the alert to super administrators', () => {
    const ALERT = 'Upload storage nearly full';
    const alerts = () => t.mail.mailsTo(t.admin.email).filter((m) => m.subject.includes(ALERT));
    const marker = async () =>
      t.db.selectFrom('system_settings').select('key').where('key', '=', 'storage_alert').executeTakeFirst();
    const quiet = () => new Promise((r) => setTimeout(r, 300));

    beforeEach(async () => {
      await t.db.deleteFrom('files').execute();
      await setStorage({ budget_mb: 1, alert_percent: 50, address_mb_per_hour: 0 });
    });

    it('is sent once when stored uploads reach the share, and again after they fell below it', async () => {
      const tk = await token();
      const before = alerts().length;
      await recordImage(t, fillerId, Math.round(0.4 * MIB));
      expect((await uploadImage(t, tk)).status).toBe(200);
      await quiet();
      expect(alerts()).toHaveLength(before);

      await leaveFree(MIB / 2 + 10);
      expect((await uploadImage(t, tk, pngOf(100))).status).toBe(200);
      await expect.poll(() => alerts().length).toBe(before + 1);
      const mail = alerts().at(-1)!;
      expect(mail.subject).toContain('50%');
      expect(mail.text).toContain('1.0 MB');
      expect(mail.text).toContain('聊天图片和头像');

      // Still above: no second mail.
      expect((await uploadImage(t, tk)).status).toBe(200);
      await quiet();
      expect(alerts()).toHaveLength(before + 1);

      // Below the share again (images deleted): the next upload re-arms it …
      await t.db.deleteFrom('files').execute();
      expect((await uploadImage(t, tk)).status).toBe(200);
      await expect.poll(marker).toBeUndefined();
      // … and the next rise alerts again, also when it is a refusal for want of room.
      await leaveFree(0);
      expect((await uploadImage(t, tk)).body.error).toBe('SITE_STORAGE_FULL');
      await expect.poll(() => alerts().length).toBe(before + 2);
      expect(alerts().at(-1)!.subject).toContain('100%');
    });

    it('stays silent while the share is off (0)', async () => {
      await setStorage({ alert_percent: 0 });
      await t.db.deleteFrom('system_settings').where('key', '=', 'storage_alert').execute();
      const before = alerts().length;
      await leaveFree(PNG_1PX.length);
      expect((await uploadImage(t, await token())).status).toBe(200);
      await quiet();
      expect(alerts()).toHaveLength(before);
      expect(await marker()).toBeUndefined();
    });
  });
});
