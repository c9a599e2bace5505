import {
  PROMPT_LIMITS,
  type PromptTemplate,
  type PromptVersion,
  errorsZhCN,
  validationEnUS,
  validationZhCN,
} from '@aiplatform/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditHeadSeq, auditRowsAfter, createGroupAsAdmin, createUserAsAdmin } from '../../../test/admin-helpers.js';
import { type TestApp, createTestApp } from '../../../test/test-app.js';

interface Person {
  id: number;
  token: string;
}

const en = validationEnUS as unknown as Record<string, Record<string, string>>;
const zh = validationZhCN as unknown as Record<string, Record<string, string>>;

describe('prompt templates', () => {
  let t: TestApp;
  let superAdmin: Person;
  let groupAdmin: Person;
  let member: Person;
  let stranger: Person;
  let otherAdmin: Person;
  let groupId: number;
  let otherGroupId: number;

  const signIn = async (overrides: Record<string, unknown>): Promise<Person> => {
    const u = await createUserAsAdmin(t, superAdmin.token, overrides);
    return { id: u.id, token: (await t.tokensFor(u.email, u.password)).accessToken };
  };
  const create = (p: Person, body: Record<string, unknown>, lang?: string) =>
    t.post<PromptTemplate>('/api/prompts', body, p.token, lang);
  const bad = (p: Person, body: Record<string, unknown>, lang?: string) => t.post('/api/prompts', body, p.token, lang);
  const createOk = async (p: Person, body: Record<string, unknown>) => {
    const res = await create(p, body);
    expect(res.status, res.text).toBe(201);
    return res.body.data;
  };
  const edit = (p: Person, id: number, body: Record<string, unknown>) =>
    t.put<PromptTemplate>(`/api/prompts/${id}`, body, p.token);
  const del = (p: Person, id: number) =>
    t.request<{ deleted: boolean }>('DELETE', `/api/prompts/${id}`, { token: p.token });
  const list = async (p: Person, query = '') => {
    const res = await t.get<PromptTemplate[]>(`/api/prompts${query}`, p.token);
    expect(res.status, res.text).toBe(200);
    return res.body.data;
  };
  const ids = async (p: Person, query = '') => (await list(p, query)).map((x) => x.id);
  const versions = (p: Person, id: number) => t.get<PromptVersion[]>(`/api/prompts/${id}/versions`, p.token);

  beforeAll(async () => {
    t = await createTestApp();
    const admin = await t.loginAsAdmin();
    superAdmin = { id: admin.user.id, token: admin.accessToken };
    groupId = (await createGroupAsAdmin(t, superAdmin.token)).id;
    otherGroupId = (await createGroupAsAdmin(t, superAdmin.token)).id;
    groupAdmin = await signIn({ group_id: groupId, role: 'admin' });
    member = await signIn({ group_id: groupId });
    stranger = await signIn({ group_id: otherGroupId });
    otherAdmin = await signIn({ group_id: otherGroupId, role: 'admin' });
  });
  afterAll(() => t.close());

  it('keeps a personal template its owner’s alone, and writes no audit row for it', async () => {
    const seq = await auditHeadSeq(t);
    const p = await createOk(member, { title: '  Weekly report ', content: 'Summarise {{topic}}' });
    expect(p).toMatchObject({ title: 'Weekly report', scope: 'personal', group_id: null, version: 1 });
    expect(p.abilities).toEqual({ update: true, delete: true });
    expect(await ids(member)).toContain(p.id);

    for (const other of [superAdmin, groupAdmin, stranger, otherAdmin]) {
      expect(await ids(other)).not.toContain(p.id);
      expect((await edit(other, p.id, { title: 'x', content: 'y' })).status).toBe(404);
      expect((await del(other, p.id)).status).toBe(404);
      expect((await versions(other, p.id)).status).toBe(404);
    }
    expect((await edit(member, p.id, { title: 'Weekly', content: 'Sum up {{topic}}' })).status).toBe(200);
    expect((await del(member, p.id)).body.data).toEqual({ deleted: true });
    expect((await versions(member, p.id)).status).toBe(404);
    expect(await auditRowsAfter(t, seq)).toEqual([]);
  });

  it('lets a group read its group’s templates and only its administrators change them', async () => {
    const plain = await create(member, { title: 'Team', content: 'x', scope: 'group' });
    expect(plain.status).toBe(403);
    expect(plain.body.error).toBe('FORBIDDEN');
    const elsewhere = await create(groupAdmin, {
      title: 'Theirs',
      content: 'x',
      scope: 'group',
      group_id: otherGroupId,
    });
    expect(elsewhere.status).toBe(404);

    const seq = await auditHeadSeq(t);
    const g = await createOk(groupAdmin, { title: 'Team reply', content: 'Dear {{customer}}', scope: 'group' });
    expect(g).toMatchObject({ scope: 'group', group_id: groupId, abilities: { update: true, delete: true } });
    expect(typeof g.group_name).toBe('string');

    const seen = (await list(member)).find((x) => x.id === g.id);
    expect(seen?.abilities).toEqual({ update: false, delete: false });
    const denied = await edit(member, g.id, { title: 'Mine now', content: 'x' });
    expect(denied.status).toBe(403);
    expect(denied.body.error).toBe('FORBIDDEN');
    expect((await del(member, g.id)).status).toBe(403);
    expect((await versions(member, g.id)).status).toBe(200);

    for (const other of [stranger, otherAdmin]) {
      expect(await ids(other)).not.toContain(g.id);
      expect((await edit(other, g.id, { title: 'x', content: 'y' })).status).toBe(404);
      expect((await del(other, g.id)).status).toBe(404);
      expect((await versions(other, g.id)).status).toBe(404);
    }

    // A super administrator reads and changes every group's, and makes one for any group.
    expect(await ids(superAdmin)).toContain(g.id);
    const bySuper = await edit(superAdmin, g.id, { title: 'Team reply', content: 'Dear {{customer}},' });
    expect(bySuper.body.data).toMatchObject({ version: 2, abilities: { update: true } });
    const forOther = await createOk(superAdmin, { title: 'B', content: 'b', scope: 'group', group_id: otherGroupId });
    expect(forOther.group_id).toBe(otherGroupId);
    expect(await ids(stranger)).toContain(forOther.id);
    expect(await ids(member)).not.toContain(forOther.id);
    expect((await create(superAdmin, { title: 'x', content: 'x', scope: 'group', group_id: 999_999 })).status).toBe(
      404,
    );

    const rows = await auditRowsAfter(t, seq);
    expect(rows.map((r) => [r.action, r.target_type, r.actor_id])).toEqual([
      ['prompt.create', 'prompt', groupAdmin.id],
      ['prompt.update', 'prompt', superAdmin.id],
      ['prompt.create', 'prompt', superAdmin.id],
    ]);
    expect(rows[1]?.changes).toMatchObject({
      before: { content: 'Dear {{customer}}' },
      after: { content: 'Dear {{customer}},' },
    });
    expect((await del(groupAdmin, g.id)).body.data).toEqual({ deleted: true });
    expect((await auditRowsAfter(t, seq)).at(-1)?.action).toBe('prompt.delete');
  });

  it('shows system templates to everyone and lets only super administrators change them', async () => {
    for (const p of [member, groupAdmin]) {
      const res = await create(p, { title: 'Site', content: 'x', scope: 'system' });
      expect(res.status).toBe(403);
    }
    const seq = await auditHeadSeq(t);
    const s = await createOk(superAdmin, {
      title: 'Translate',
      content: 'Translate into {{language}}',
      scope: 'system',
    });
    expect(s).toMatchObject({ scope: 'system', group_id: null, abilities: { update: true, delete: true } });
    for (const p of [member, groupAdmin, stranger, otherAdmin]) {
      const seen = (await list(p)).find((x) => x.id === s.id);
      expect(seen?.abilities).toEqual({ update: false, delete: false });
      expect((await edit(p, s.id, { title: 'x', content: 'y' })).status).toBe(403);
      expect((await del(p, s.id)).status).toBe(403);
    }
    expect((await auditRowsAfter(t, seq)).map((r) => r.action)).toEqual(['prompt.create']);
  });

  it('keeps every earlier version, and restores one by saving its text again', async () => {
    const p = await createOk(stranger, { title: 'v1', content: 'first' });
    const unchanged = await edit(stranger, p.id, { title: 'v1', content: 'first' });
    expect(unchanged.body.data.version).toBe(1);
    await edit(stranger, p.id, { title: 'v2', content: 'second' });
    const third = await edit(stranger, p.id, { title: 'v3', content: 'third' });
    expect(third.body.data).toMatchObject({ version: 3, title: 'v3', content: 'third' });

    const history = (await versions(stranger, p.id)).body.data;
    expect(history.map((v) => [v.version, v.title, v.content])).toEqual([
      [2, 'v2', 'second'],
      [1, 'v1', 'first'],
    ]);
    expect(history.every((v) => v.edited_by !== null && v.edited_at !== '')).toBe(true);

    const restored = await edit(stranger, p.id, { title: history[1]!.title, content: history[1]!.content });
    expect(restored.body.data).toMatchObject({ version: 4, title: 'v1', content: 'first' });
    expect((await versions(stranger, p.id)).body.data.map((v) => v.version)).toEqual([3, 2, 1]);
  });

  it('searches title and content, case-insensitively and literally, and filters by scope', async () => {
    const a = await createOk(otherAdmin, { title: 'Release NOTES', content: 'Write release notes' });
    const b = await createOk(otherAdmin, { title: '周报', content: '总结本周的{{项目}}进展' });
    const c = await createOk(otherAdmin, { title: 'Discount', content: 'Offer 100% off' });
    const g = await createOk(otherAdmin, { title: 'Team notes', content: 'x', scope: 'group' });

    expect(await ids(otherAdmin, '?search=notes')).toEqual(expect.arrayContaining([a.id, g.id]));
    expect(await ids(otherAdmin, '?search=notes')).not.toContain(c.id);
    expect(await ids(otherAdmin, `?search=${encodeURIComponent('本周')}`)).toEqual([b.id]);
    expect(await ids(otherAdmin, `?search=${encodeURIComponent('100%')}`)).toEqual([c.id]);
    expect(await ids(otherAdmin, `?search=${encodeURIComponent('0%_')}`)).toEqual([]);
    expect(await ids(otherAdmin, '?search=notes&scope=personal')).toEqual([a.id]);
    const groupOnly = await list(otherAdmin, '?scope=group');
    expect(groupOnly.map((x) => x.id)).toContain(g.id);
    expect(groupOnly.every((x) => x.scope === 'group')).toBe(true);
    expect((await list(otherAdmin, '?scope=system')).every((x) => x.scope === 'system')).toBe(true);
    // The member of the same group finds the group's, not the administrator's own.
    expect(await ids(stranger, '?search=notes')).toEqual([g.id]);
  });

  it('parses the variables once each, in order, with Chinese names', async () => {
    const p = await createOk(member, {
      title: 'Vars',
      content: 'Hi {{name}}, from {{ 城市 }} to {{name}}; {{bad-name}} {{a_1}} {{}} {{x y}}',
    });
    expect(p.variables).toEqual(['name', '城市', 'a_1']);
    const edited = await edit(member, p.id, { title: 'Vars', content: 'Only {{地点}}' });
    expect(edited.body.data.variables).toEqual(['地点']);
  });

  it('refuses bad input with translated messages, and unknown ids as not found', async () => {
    const empty = await bad(member, { title: '  ', content: 'x' }, 'en-US');
    expect(empty.status).toBe(400);
    expect(empty.body.data.errors).toEqual([en.prompt?.title]);
    const chinese = await bad(member, { title: 'x', content: '   ' }, 'zh-CN');
    expect(chinese.status).toBe(400);
    expect(chinese.body.data.errors).toEqual([zh.prompt?.content]);
    const long = await bad(member, { title: 'x', content: 'x'.repeat(PROMPT_LIMITS.contentMax + 1) }, 'en-US');
    expect(long.body.data.errors).toEqual([en.prompt?.content]);
    const many = Array.from({ length: PROMPT_LIMITS.variablesMax + 1 }, (_, i) => `{{v${i}}}`).join(' ');
    expect((await bad(member, { title: 'x', content: many }, 'en-US')).body.data.errors).toEqual([
      en.prompt?.variables,
    ]);
    const scope = await bad(member, { title: 'x', content: 'x', scope: 'team' }, 'zh-CN');
    expect(scope.status).toBe(400);
    expect(scope.body.data.errors).toEqual([zh.prompt?.scope]);
    expect((await bad(member, { title: 5, content: 'x' }, 'en-US')).body.data.errors).toEqual([en.prompt?.title]);
    expect((await t.get(`/api/prompts?search=${'x'.repeat(101)}`, member.token)).status).toBe(400);
    expect((await t.get('/api/prompts?scope=team', member.token)).status).toBe(400);

    expect((await edit(member, 999_999, { title: 'x', content: 'y' })).status).toBe(404);
    expect((await del(member, 999_999)).status).toBe(404);
    expect((await versions(member, 999_999)).status).toBe(404);
    expect((await edit(member, 1, { title: '', content: 'y' })).status).toBe(400);
  });

  it('caps the personal templates one account keeps', async () => {
    const owner = await signIn({ group_id: groupId });
    const now = new Date().toISOString();
    const rows = Array.from({ length: PROMPT_LIMITS.personalPerUser }, (_, i) => ({
      title: `t${i}`,
      content: 'x',
      scope: 'personal' as const,
      owner_id: owner.id,
      group_id: null,
      created_by: owner.id,
      updated_by: owner.id,
      created_at: now,
      updated_at: now,
    }));
    await t.db.insertInto('prompt_templates').values(rows).execute();
    const over = await create(owner, { title: 'one more', content: 'x' }, 'zh-CN');
    expect(over.status).toBe(409);
    expect(over.body.error).toBe('PROMPT_LIMIT_REACHED');
    expect(over.body.message).toBe(
      errorsZhCN.PROMPT_LIMIT_REACHED.replace('{{max}}', String(PROMPT_LIMITS.personalPerUser)),
    );
    // Shared places have their own count.
    expect((await create(superAdmin, { title: 'shared', content: 'x', scope: 'system' })).status).toBe(201);
  });
});
