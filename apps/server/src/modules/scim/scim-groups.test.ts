import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, createTestApp, unique } from '../../../test/test-app.js';
import { auditHeadSeq, auditRowsAfter } from '../../../test/admin-helpers.js';
import { scim, scimToken } from '../../../test/scim-helpers.js';

type ScimGroup = { id: string; displayName: string; members?: { value: string }[] };
type ScimList = { totalResults: number; Resources: ScimGroup[] };
const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';

describe('SCIM /Groups', () => {
  let t: TestApp;
  let token: string;

  beforeAll(async () => {
    t = await createTestApp();
    token = (await scimToken(t, (await t.loginAsAdmin()).accessToken)).token;
  });
  afterAll(async () => {
    await t.close();
  });

  const newUser = async () => {
    const s = unique();
    const res = await scim<{ id: string }>(t, 'POST', '/Users', token, {
      userName: `member_${s}`,
      emails: [{ primary: true, value: `member_${s}@example.com` }],
      active: true,
    });
    if (res.status !== 201) throw new Error(res.text);
    return res.body.id;
  };
  const groupOf = async (id: string) => (await t.userRow(Number(id))).group_id;

  it('creates a group with members, moving them into it, and finds it by displayName', async () => {
    const [a, b] = [await newUser(), await newUser()];
    expect(await groupOf(a)).toBe(1);
    const name = `Sales ${unique()}`;
    const seq = await auditHeadSeq(t);
    const res = await scim<ScimGroup>(t, 'POST', '/Groups', token, {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'],
      displayName: name,
      members: [{ value: a }, { value: b }],
    });
    expect(res.status, res.text).toBe(201);
    const gid = Number(res.body.id);
    expect(res.body.members!.map((m) => m.value).sort()).toEqual([a, b].sort());
    expect([await groupOf(a), await groupOf(b)]).toEqual([gid, gid]);
    const actions = (await auditRowsAfter(t, seq)).map((r) => [r.action, r.actor_username?.startsWith('scim:')]);
    expect(actions).toEqual([
      ['group.create', true],
      ['user.move', true],
      ['user.move', true],
    ]);

    // Entra looks groups up by name, without their members.
    const found = await scim<ScimList>(
      t,
      'GET',
      `/Groups?excludedAttributes=members&filter=${encodeURIComponent(`displayName eq "${name}"`)}`,
      token,
    );
    expect(found.body.totalResults).toBe(1);
    expect(found.body.Resources[0]).toMatchObject({ id: String(gid), displayName: name });
    expect(found.body.Resources[0]!.members).toBeUndefined();

    // Entra checks one membership: GET /Groups?filter=id eq "…" and members eq "…"
    const member = (userId: string) =>
      scim<ScimList>(
        t,
        'GET',
        `/Groups?excludedAttributes=members&filter=${encodeURIComponent(`id eq "${gid}" and members eq "${userId}"`)}`,
        token,
      );
    expect((await member(a)).body.totalResults).toBe(1);
    expect((await member(await newUser())).body.totalResults).toBe(0);
  });

  it("adds and removes members with Entra's and Okta's PATCH forms; a removed member returns to the default group", async () => {
    const [a, b] = [await newUser(), await newUser()];
    const gid = (await scim<ScimGroup>(t, 'POST', '/Groups', token, { displayName: `Ops ${unique()}` })).body.id;

    // Entra: capitalised op, members as a list of values.
    const added = await scim<ScimGroup>(t, 'PATCH', `/Groups/${gid}`, token, {
      schemas: [PATCH_OP],
      Operations: [{ op: 'Add', path: 'members', value: [{ $ref: null, value: a }, { value: b }] }],
    });
    expect(added.status, added.text).toBe(200);
    expect([await groupOf(a), await groupOf(b)]).toEqual([Number(gid), Number(gid)]);

    // Okta: remove one member by a filter path.
    const removed = await scim(t, 'PATCH', `/Groups/${gid}`, token, {
      schemas: [PATCH_OP],
      Operations: [{ op: 'remove', path: `members[value eq "${a}"]` }],
    });
    expect(removed.status, removed.text).toBe(200);
    expect([await groupOf(a), await groupOf(b)]).toEqual([1, Number(gid)]);

    // Entra: remove with the members in the value.
    await scim(t, 'PATCH', `/Groups/${gid}`, token, {
      schemas: [PATCH_OP],
      Operations: [{ op: 'Remove', path: 'members', value: [{ value: b }] }],
    });
    expect(await groupOf(b)).toBe(1);

    // Okta renames a group with a path-less replace.
    const renamed = `Ops renamed ${unique()}`;
    const res = await scim<ScimGroup>(t, 'PATCH', `/Groups/${gid}`, token, {
      schemas: [PATCH_OP],
      Operations: [{ op: 'replace', value: { id: gid, displayName: renamed } }],
    });
    expect(res.body.displayName).toBe(renamed);
  });

  it('moves a member out of the group they were in: one group per person', async () => {
    const a = await newUser();
    const first = (
      await scim<ScimGroup>(t, 'POST', '/Groups', token, { displayName: `One ${unique()}`, members: [{ value: a }] })
    ).body.id;
    const second = (await scim<ScimGroup>(t, 'POST', '/Groups', token, { displayName: `Two ${unique()}` })).body.id;
    await scim(t, 'PATCH', `/Groups/${second}`, token, {
      Operations: [{ op: 'add', path: 'members', value: [{ value: a }] }],
    });
    expect(await groupOf(a)).toBe(Number(second));
    const one = await scim<ScimGroup>(t, 'GET', `/Groups/${first}`, token);
    expect(one.body.members).toEqual([]);
  });

  it('does not move a person whose group an administrator pinned', async () => {
    const superToken = (await t.loginAsAdmin()).accessToken;
    const [pinned, free] = [await newUser(), await newUser()];
    expect((await t.put(`/api/admin/users/${pinned}`, { group_pinned: true }, superToken)).status).toBe(200);
    const gid = (
      await scim<ScimGroup>(t, 'POST', '/Groups', token, {
        displayName: `Pinned ${unique()}`,
        members: [{ value: pinned }, { value: free }],
      })
    ).body.id;
    expect([await groupOf(pinned), await groupOf(free)]).toEqual([1, Number(gid)]);
  });

  it('PUT replaces the member list; DELETE sends members back to the default group', async () => {
    const [a, b] = [await newUser(), await newUser()];
    const name = `Team ${unique()}`;
    const gid = (await scim<ScimGroup>(t, 'POST', '/Groups', token, { displayName: name, members: [{ value: a }] }))
      .body.id;
    const put = await scim<ScimGroup>(t, 'PUT', `/Groups/${gid}`, token, {
      displayName: name,
      members: [{ value: b }],
    });
    expect(put.status, put.text).toBe(200);
    expect([await groupOf(a), await groupOf(b)]).toEqual([1, Number(gid)]);

    expect((await scim(t, 'DELETE', `/Groups/${gid}`, token)).status).toBe(204);
    expect(await groupOf(b)).toBe(1);
    expect((await scim(t, 'GET', `/Groups/${gid}`, token)).status).toBe(404);
  });

  it('refuses a second group with the same name (409 uniqueness) and an unknown member (400)', async () => {
    const name = `Dup ${unique()}`;
    expect((await scim(t, 'POST', '/Groups', token, { displayName: name })).status).toBe(201);
    const dup = await scim<{ scimType: string }>(t, 'POST', '/Groups', token, { displayName: name });
    expect(dup.status).toBe(409);
    expect(dup.body.scimType).toBe('uniqueness');
    const ghost = await scim<{ scimType: string }>(t, 'POST', '/Groups', token, {
      displayName: `Ghost ${unique()}`,
      members: [{ value: '999999' }],
    });
    expect(ghost.status).toBe(400);
  });
});
