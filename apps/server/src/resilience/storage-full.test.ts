import fsp from 'node:fs/promises';
import { ADMIN_FILE_PATHS } from '@aiplatform/contracts';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createChatApp } from '../../test/chat-helpers.js';
import { PNG_1PX, TEST_DATABASE_URL, type TestApp, multipartFile } from '../../test/test-app.js';
import { filesIn, recordImage, uploadAvatar, uploadImage } from '../../test/upload-helpers.js';

const realWriteFile = fsp.writeFile.bind(fsp);

/** The next file write begins the file (0 bytes on disk, as a full disk leaves it) and fails with `code`. */
function failNextWrite(code: 'ENOSPC' | 'EDQUOT') {
  return vi.spyOn(fsp, 'writeFile').mockImplementationOnce(async (file) => {
    await realWriteFile(file, '');
    throw Object.assign(new Error(`${code}: no space left on device, write`), { code, errno: -28, syscall: 'write' });
  });
}

const UNAVAILABLE = {
  'zh-CN': '服务暂时不可用，请稍后再试',
  'en-US': 'Service temporarily unavailable, please try again later',
} as const;

describe('a full disk', () => {
  let t: TestApp;
  let token: string;
  let userId: number;
  let superToken: string;
  beforeAll(async () => {
    ({ t } = await createChatApp());
    t.app.get('/api/test-only/pg-disk-full', () => {
      throw Object.assign(new Error('could not extend file "base/16384/2619": No space left on device'), {
        code: '53100',
      });
    });
    ({
      session: { accessToken: token },
      creds: { id: userId },
    } = await t.signUp());
    superToken = (await t.loginAsAdmin()).accessToken;
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });
  afterAll(async () => {
    await t.close();
  });

  /** Runs `insert` until SQLite answers that the file is full. */
  async function fillWith(insert: () => Promise<unknown>) {
    for (;;) {
      try {
        await insert();
      } catch (err) {
        expect((err as { code?: string }).code).toBe('SQLITE_FULL');
        return;
      }
    }
  }

  /**
   * Fills what room the SQLite file has left with mail rows straight in the database (many
   * times faster than through the API), largest first so that little is left anywhere.
   */
  async function fillDatabase() {
    for (const size of [65_536, 4096, 256]) {
      await fillWith(() =>
        t.db
          .insertInto('outbox_mails')
          .values({ to_address: 'fill@test.local', subject: 'fill', body: 'x'.repeat(size), created_at: '2030-01-01' })
          .execute(),
      );
    }
  }
  const imageRows = async () => (await t.db.selectFrom('files').select('id').execute()).length;

  it('answers a chat image upload with a translated 503 and leaves no file behind', async () => {
    for (const [code, lang] of [
      ['ENOSPC', 'en-US'],
      ['EDQUOT', 'zh-CN'],
    ] as const) {
      const rows = await imageRows();
      failNextWrite(code);
      const res = await uploadImage(t, token, PNG_1PX, { lang });
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ success: false, error: 'SERVICE_UNAVAILABLE', message: UNAVAILABLE[lang] });
      expect(res.headers['retry-after']).toBe('60');
      expect(filesIn(t, 'uploads')).toEqual([]);
      expect(await imageRows()).toBe(rows);
    }
    // Space again: the same upload works.
    expect((await uploadImage(t, token)).status).toBe(200);
    expect(filesIn(t, 'uploads')).toHaveLength(1);
  });

  it('answers an avatar upload with 503, keeps the avatar and leaves no file behind', async () => {
    const first = await uploadAvatar(t, token);
    expect(first.status).toBe(200);
    failNextWrite('ENOSPC');
    const res = await uploadAvatar(t, token);
    expect(res.status).toBe(503);
    expect(res.body.error).toBe('SERVICE_UNAVAILABLE');
    expect(filesIn(t, 'avatars')).toEqual([first.body.data.url.split('/').at(-1)]);
    expect((await t.userRow(userId)).avatar_url).toBe(first.body.data.url);
  });

  it('answers a site logo upload with 503 and leaves no partial file behind', async () => {
    failNextWrite('ENOSPC');
    const { payload, headers } = multipartFile('logo', 'logo.png', 'image/png', PNG_1PX);
    const res = await t.request('POST', `/api${ADMIN_FILE_PATHS.uploadLogo}`, { payload, headers, token: superToken });
    expect(res.status).toBe(503);
    expect(res.body.error).toBe('SERVICE_UNAVAILABLE');
    expect(filesIn(t, 'site-images')).toEqual([]);
  });

  it('answers PostgreSQL’s disk_full (53100) with 503', async () => {
    const res = await t.request('GET', '/api/test-only/pg-disk-full', { lang: 'en-US' });
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ error: 'SERVICE_UNAVAILABLE', message: UNAVAILABLE['en-US'] });
  });

  // A real fault: the database file may not grow past its current pages.
  it.skipIf(!!TEST_DATABASE_URL)(
    'answers writes with 503 while SQLite cannot grow, and removes the stored bytes',
    async () => {
      const pages = (await sql<{ page_count: number }>`pragma page_count`.execute(t.db)).rows[0]!.page_count;
      await sql.raw(`pragma max_page_count = ${pages}`).execute(t.db);
      try {
        await fillDatabase();
        // The file is full: the next writes need a page it cannot add.
        let res;
        for (let i = 0; i < 20; i += 1) {
          res = await t.post(
            '/api/chat/conversations',
            { model_name: 'fake-echo', system_prompt: 'x'.repeat(20_000) },
            token,
            'zh-CN',
          );
          if (res.status !== 201) break;
        }
        expect(res?.status).toBe(503);
        expect(res?.body).toMatchObject({ error: 'SERVICE_UNAVAILABLE', message: UNAVAILABLE['zh-CN'] });
        // An upload whose row cannot be recorded (image rows fill the table's last pages
        // first): its bytes, written first, are removed again.
        await fillWith(() => recordImage(t, userId, 1));
        const onDisk = filesIn(t, 'uploads');
        const upload = await uploadImage(t, token);
        expect(upload.status).toBe(503);
        expect(filesIn(t, 'uploads')).toEqual(onDisk);
      } finally {
        await sql.raw('pragma max_page_count = 4294967294').execute(t.db);
      }
      expect((await uploadImage(t, token)).status).toBe(200);
    },
    60_000,
  );
});
