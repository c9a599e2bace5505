import type { ApiKeyModel, Group } from '@aiplatform/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminSession,
  auditHeadSeq,
  auditRowsAfter,
  createGroupAsAdmin,
  createUserAsAdmin,
} from '../../../test/admin-helpers.js';
import { grantApiKeys } from '../../../test/api-key-helpers.js';
import { addModel, createChatApp } from '../../../test/chat-helpers.js';
import type { TestApp } from '../../../test/test-app.js';

/** Permissions granted to a whole group (`api.keys` above all), and the models a key may be limited to. */
describe('group permissions', () => {
  let t: TestApp;
  let superToken: string;
  beforeAll(async () => {
    const made = await createChatApp();
    t = made.t;
    await addModel(t, made.fake, { name: 'fake-embed', kind: 'embedding' });
    superToken = (await t.loginAsAdmin()).accessToken;
  });
  afterAll(() => t.close());

  const member = async (groupId: number) => {
    const user = await createUserAsAdmin(t, superToken, { group_id: groupId });
    return (await t.tokensFor(user.email, user.password)).accessToken;
  };

  it('a super administrator grants api.keys to a group: its members may make keys until it is taken back', async () => {
    const group = await createGroupAsAdmin(t, superToken);
    expect(group.permissions).toEqual([]);
    const token = await member(group.id);
    expect((await t.get('/api/keys', token)).status).toBe(403);

    const seq = await auditHeadSeq(t);
    const url = `/api/admin/user-groups/${group.id}`;
    const granted = await t.put<Group>(url, { permissions: ['api.keys', 'api.keys'] }, superToken);
    expect(granted.status, granted.text).toBe(200);
    expect(granted.body.data.permissions).toEqual(['api.keys']);
    expect((await t.get<Group>(url, superToken)).body.data.permissions).toEqual(['api.keys']);
    const listed = await t.get<Group[]>('/api/admin/user-groups?limit=100', superToken);
    expect(listed.body.data.find((g) => g.id === group.id)?.permissions).toEqual(['api.keys']);
    const [audit] = await auditRowsAfter(t, seq);
    expect(audit).toMatchObject({ action: 'group.update', target_id: String(group.id) });
    expect(audit?.changes).toEqual({ before: { permissions: [] }, after: { permissions: ['api.keys'] } });

    // The member's open session sees the grant at once: the change empties the session cache.
    expect((await t.get('/api/keys', token)).status).toBe(200);
    expect((await t.post('/api/keys', { name: 'from the group' }, token)).status).toBe(201);
    const me = await t.get<{ permissions: string[] }>('/api/auth/me', token);
    expect(me.body.data.permissions).toContain('api.keys');

    expect((await t.put(url, { permissions: [] }, superToken)).status).toBe(200);
    expect((await t.get('/api/keys', token)).status).toBe(403);
  });

  it('grants on creation, refuses an unknown permission, and only a super administrator changes the list', async () => {
    const group = await createGroupAsAdmin(t, superToken, { permissions: ['api.keys'] });
    expect(group.permissions).toEqual(['api.keys']);
    const url = `/api/admin/user-groups/${group.id}`;
    const unknown = await t.request('PUT', url, { body: { permissions: ['root.everything'] }, token: superToken });
    expect(unknown.status).toBe(400);

    // Whoever manages groups but may not grant permissions edits the group, echoing the list unchanged.
    const { token: manager } = await adminSession(t, superToken, { extra_permissions: ['group.manage'] });
    const seen = await t.get<Group>(url, manager);
    expect(seen.body.data.abilities).toMatchObject({ manage: true, permissions: false });
    const echo = await t.put<Group>(url, { description: 'kept', permissions: ['api.keys'] }, manager);
    expect(echo.status, echo.text).toBe(200);
    expect((await t.put(url, { permissions: [] }, manager)).status).toBe(403);
    expect(
      (await t.post('/api/admin/user-groups', { name: `p_${group.id}`, permissions: ['api.keys'] }, manager)).status,
    ).toBe(403);
    expect((await t.get<Group>(url, superToken)).body.data).toMatchObject({
      description: 'kept',
      permissions: ['api.keys'],
      abilities: { permissions: true },
    });
  });

  it('lists the models a key may be limited to: chat and embedding models the owner may use', async () => {
    const { session } = await t.signUp();
    expect((await t.get('/api/keys/models', session.accessToken)).status).toBe(403);
    await grantApiKeys(t, session.user.id);
    const res = await t.get<ApiKeyModel[]>('/api/keys/models', session.accessToken);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'fake-echo', kind: 'chat' }),
        expect.objectContaining({ name: 'fake-embed', kind: 'embedding' }),
      ]),
    );
    for (const m of res.body.data) expect(m.display_name.length).toBeGreaterThan(0);
  });
});
