import { type Announcement, validationEnUS, validationZhCN } from '@aiplatform/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminSession, auditHeadSeq, auditRowsAfter, createGroupAsAdmin } from '../../../test/admin-helpers.js';
import { type TestApp, createTestApp } from '../../../test/test-app.js';

const SYSTEM = '/api/admin/announcement';
const groupUrl = (id: number) => `/api/admin/user-groups/${id}/announcement`;
const MINE = '/api/stats/my-group-announcement';

const en = validationEnUS as unknown as Record<string, Record<string, string>>;
const zh = validationZhCN as unknown as Record<string, Record<string, string>>;

const EMPTY = {
  content: '',
  enabled: false,
  format: 'markdown',
  starts_at: null,
  ends_at: null,
  updated_at: null,
  updated_by: null,
  visible: false,
};

describe('announcements', () => {
  let t: TestApp;
  let admin: string;
  let adminId: number;
  let user: string;
  let groupA: number;
  let groupB: number;
  let groupAdminA: string;
  let memberA: string;
  let memberB: string;

  const at = (offsetMs: number) => new Date(t.clock.now().getTime() + offsetMs).toISOString();

  beforeAll(async () => {
    t = await createTestApp();
    const login = await t.loginAsAdmin();
    admin = login.accessToken;
    adminId = login.user.id;
    user = (await t.signUp()).session.accessToken;
    groupA = (await createGroupAsAdmin(t, admin)).id;
    groupB = (await createGroupAsAdmin(t, admin)).id;
    groupAdminA = (await adminSession(t, admin, { group_id: groupA })).token;
    const member = async (groupId: number) => {
      const { creds } = await t.signUp();
      await t.db.updateTable('users').set({ group_id: groupId }).where('id', '=', creds.id).execute();
      return (await t.tokensFor(creds.email, creds.password)).accessToken;
    };
    memberA = await member(groupA);
    memberB = await member(groupB);
  });
  afterAll(async () => {
    await t.close();
  });

  describe('system announcement', () => {
    it('is empty before anything is written', async () => {
      const res = await t.get<Announcement>(SYSTEM, user);
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ ...EMPTY, group_id: null });
      expect((await t.get(SYSTEM)).status).toBe(401);
    });

    it('is written by a super administrator, audited, and shown to every signed-in user', async () => {
      const seq = await auditHeadSeq(t);
      const res = await t.put<Announcement>(SYSTEM, { content: '**Maintenance** on Friday' }, admin);
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({
        content: '**Maintenance** on Friday',
        enabled: true,
        format: 'markdown',
        starts_at: null,
        ends_at: null,
        updated_by: adminId,
        visible: true,
        group_id: null,
      });
      expect((await t.get<Announcement>(SYSTEM, user)).body.data).toEqual(res.body.data);
      const rows = await auditRowsAfter(t, seq);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        action: 'announcement.update',
        target_type: 'announcement',
        target_id: 'system',
      });
      expect(rows[0]?.changes.after).toMatchObject({ content: '**Maintenance** on Friday', enabled: true });
    });

    it('is refused to everyone else', async () => {
      for (const token of [user, groupAdminA]) {
        const res = await t.put(SYSTEM, { content: 'mine' }, token);
        expect(res.status).toBe(403);
        expect(res.body.error).toBe('FORBIDDEN');
      }
      expect((await t.get<Announcement>(SYSTEM, user)).body.data.content).toBe('**Maintenance** on Friday');
    });

    it('hides a disabled draft from readers, but not from its editor', async () => {
      await t.put(SYSTEM, { content: 'Draft text', enabled: false }, admin);
      const reader = await t.get<Announcement>(SYSTEM, user);
      expect(reader.body.data).toEqual({ ...EMPTY, group_id: null });
      expect(reader.text).not.toContain('Draft text');
      const editor = await t.get<Announcement>(SYSTEM, admin);
      expect(editor.body.data).toMatchObject({ content: 'Draft text', enabled: false, visible: false });
    });

    it('shows a scheduled announcement only inside its window, following the clock', async () => {
      const starts = at(60 * 60_000);
      const ends = at(2 * 60 * 60_000);
      const saved = await t.put<Announcement>(
        SYSTEM,
        { content: 'Scheduled', starts_at: starts, ends_at: ends },
        admin,
      );
      expect(saved.body.data).toMatchObject({ starts_at: starts, ends_at: ends, visible: false });
      // Before the start: nothing, not even the schedule.
      const early = await t.get<Announcement>(SYSTEM, user);
      expect(early.body.data).toEqual({ ...EMPTY, group_id: null });
      expect(early.text).not.toContain('Scheduled');
      expect((await t.get<Announcement>(SYSTEM, admin)).body.data).toMatchObject({
        content: 'Scheduled',
        visible: false,
      });
      t.clock.advance(60 * 60_000);
      expect((await t.get<Announcement>(SYSTEM, user)).body.data).toMatchObject({
        content: 'Scheduled',
        visible: true,
      });
      t.clock.advance(60 * 60_000);
      expect((await t.get<Announcement>(SYSTEM, user)).body.data.visible).toBe(false);
      expect((await t.get<Announcement>(SYSTEM, user)).body.data.content).toBe('');
    });

    it('stores schedule times in UTC whatever offset they were given in', async () => {
      const res = await t.put<Announcement>(
        SYSTEM,
        { content: 'Offsets', starts_at: '2020-01-01T08:00:00+08:00', ends_at: null },
        admin,
      );
      expect(res.body.data).toMatchObject({ starts_at: '2020-01-01T00:00:00.000Z', ends_at: null, visible: true });
    });

    it('does not show an empty or blank announcement', async () => {
      await t.put(SYSTEM, { content: '   \n ' }, admin);
      expect((await t.get<Announcement>(SYSTEM, user)).body.data.visible).toBe(false);
    });

    it('refuses a bad schedule with translated messages', async () => {
      const order = { content: 'x', starts_at: at(2000), ends_at: at(1000) };
      const english = await t.put(SYSTEM, order, admin, 'en-US');
      expect(english.status).toBe(400);
      expect(english.body.data.errors).toEqual([en.schedule?.order]);
      const chinese = await t.put(SYSTEM, order, admin, 'zh-CN');
      expect(chinese.body.data.errors).toEqual([zh.schedule?.order]);
      const invalid = await t.put(SYSTEM, { content: 'x', starts_at: 'next friday' }, admin, 'en-US');
      expect(invalid.body.data.errors).toEqual([en.schedule?.invalid]);
      const long = await t.put(SYSTEM, { content: 'x'.repeat(20_001) }, admin, 'zh-CN');
      expect(long.body.data.errors).toEqual([zh.announcement?.max]);
    });

    it('cleans raw HTML out of the markdown on save, keeping markdown and safe markup', async () => {
      const content = [
        '# Notice',
        '',
        '> Quoted, with a > b and x < y',
        '',
        'Text with <b>bold</b>, <em>emphasis</em> and <br/> a break.',
        '<script>alert("x")</script>',
        '<img src=x onerror=alert(1)>',
        '<p onclick="steal()" style="color:red">Paragraph</p>',
        '<a href="javascript:alert(1)">html link</a> <a href="https://example.com" target="_blank">safe</a>',
        '[md link](javascript:alert(1)) and [fine](https://example.com/page)',
        '<iframe src="https://evil.example"></iframe>',
        '<https://example.com/auto>',
      ].join('\n');
      const res = await t.put<Announcement>(SYSTEM, { content }, admin);
      const saved = res.body.data.content;
      for (const gone of ['<script', 'alert(', 'onerror', 'onclick', 'style=', 'javascript:', '<iframe', '<img']) {
        expect(saved).not.toContain(gone);
      }
      expect(saved).toContain('# Notice');
      expect(saved).toContain('> Quoted, with a > b and x < y');
      expect(saved).toContain('<b>bold</b>, <em>emphasis</em> and <br> a break.');
      expect(saved).toContain('<p>Paragraph</p>');
      expect(saved).toContain('<a>html link</a> <a href="https://example.com">safe</a>');
      expect(saved).toContain('[md link](#)');
      expect(saved).toContain('[fine](https://example.com/page)');
      expect(saved).toContain('<https://example.com/auto>');
      expect((await t.get<Announcement>(SYSTEM, user)).body.data.content).toBe(saved);
    });

    it('does not let removed pieces join into a new tag', async () => {
      const res = await t.put<Announcement>(
        SYSTEM,
        {
          content:
            '<<x>img src=x onerror=alert(1)> <scr<script>x</script>ipt>alert(2)</script> <a href="jav&#x61;script:alert(3)">e</a>',
        },
        admin,
      );
      const saved = res.body.data.content;
      expect(saved).not.toMatch(/<img|<script|onerror=|javascript:/i);
      expect(saved).not.toContain('jav&#x61;script');
    });
  });

  describe('group announcements', () => {
    it('are edited by a group administrator for their own group, and audited', async () => {
      const seq = await auditHeadSeq(t);
      const res = await t.put<Announcement>(groupUrl(groupA), { content: 'Team A news' }, groupAdminA);
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ content: 'Team A news', visible: true, group_id: groupA });
      expect((await t.get<Announcement>(groupUrl(groupA), groupAdminA)).body.data.content).toBe('Team A news');
      const rows = await auditRowsAfter(t, seq);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        action: 'group.announcement.update',
        target_type: 'group',
        target_id: String(groupA),
      });
    });

    it('of other groups do not exist for a group administrator', async () => {
      const read = await t.get(groupUrl(groupB), groupAdminA);
      expect(read.status).toBe(404);
      const write = await t.put(groupUrl(groupB), { content: 'Not yours' }, groupAdminA);
      expect(write.status).toBe(404);
      expect(await t.db.selectFrom('announcements').select('id').where('group_id', '=', groupB).execute()).toEqual([]);
    });

    it('are managed everywhere by whoever manages groups; an unknown group is a 404', async () => {
      const res = await t.put<Announcement>(groupUrl(groupB), { content: 'Team B news', enabled: false }, admin);
      expect(res.body.data).toMatchObject({ group_id: groupB, enabled: false, visible: false });
      expect((await t.get<Announcement>(groupUrl(groupB), admin)).body.data.content).toBe('Team B news');
      expect((await t.get(groupUrl(2_000_000), admin)).status).toBe(404);
      expect((await t.put(groupUrl(2_000_000), { content: 'x' }, admin)).status).toBe(404);
      expect((await t.get(groupUrl(groupA), user)).status).toBe(403);
    });

    it('give members their own group announcement only while visible', async () => {
      const a = await t.get<Announcement>(MINE, memberA);
      expect(a.status).toBe(200);
      expect(a.body.data).toMatchObject({ content: 'Team A news', visible: true, group_id: groupA });
      // Group B's announcement is switched off: an empty one, without its text.
      const b = await t.get<Announcement>(MINE, memberB);
      expect(b.body.data).toEqual({ ...EMPTY, group_id: groupB });
      expect(b.text).not.toContain('Team B news');
      expect((await t.get(MINE)).status).toBe(401);
    });

    it('follow their schedule for members', async () => {
      await t.put(groupUrl(groupA), { content: 'Later', starts_at: at(10 * 60_000) }, groupAdminA);
      expect((await t.get<Announcement>(MINE, memberA)).body.data).toEqual({ ...EMPTY, group_id: groupA });
      t.clock.advance(10 * 60_000);
      expect((await t.get<Announcement>(MINE, memberA)).body.data).toMatchObject({ content: 'Later', visible: true });
    });

    it('clean their content like the system one', async () => {
      const res = await t.put<Announcement>(
        groupUrl(groupA),
        { content: 'Hi <script>alert(1)</script><a href="javascript:x()">x</a> **there**' },
        groupAdminA,
      );
      expect(res.body.data.content).toBe('Hi <a>x</a> **there**');
    });

    it('go with their group', async () => {
      const group = await createGroupAsAdmin(t, admin);
      await t.put(groupUrl(group.id), { content: 'Short-lived' }, admin);
      expect((await t.request('DELETE', `/api/admin/user-groups/${group.id}`, { token: admin })).status).toBe(200);
      const rows = await t.db
        .selectFrom('announcements')
        .select('id')
        .where('scope_key', '=', `group:${group.id}`)
        .execute();
      expect(rows).toEqual([]);
    });
  });
});
