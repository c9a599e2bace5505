import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminSession, createGroupAsAdmin, createUserAsAdmin } from '../../../test/admin-helpers.js';
import { addModel, createChatApp, createConversation } from '../../../test/chat-helpers.js';
import { chatTurn, pinToMidday, realtime } from '../../../test/stats-helpers.js';
import type { TestApp } from '../../../test/test-app.js';
import { ManualClock } from '../../lib/runtime/clock.js';

/** The dashboard's live card: the site for super administrators, the group for its administrator, else one's own. */
describe('live figures by role', () => {
  let t: TestApp;
  let superToken: string;
  let groupAdmin: string;
  let member: string;
  let outsider: string;
  let plain: string;
  beforeAll(async () => {
    const clock = new ManualClock();
    pinToMidday(clock);
    const chat = await createChatApp({ clock });
    t = chat.t;
    await addModel(t, chat.fake, { name: 'scope-a', display_name: 'Scope A' });
    await addModel(t, chat.fake, { name: 'scope-b', display_name: 'Scope B' });
    superToken = (await t.loginAsAdmin()).accessToken;
    const groupA = await createGroupAsAdmin(t, superToken);
    const groupB = await createGroupAsAdmin(t, superToken);
    groupAdmin = (await adminSession(t, superToken, { group_id: groupA.id })).token;
    const signIn = async (groupId: number) => {
      const u = await createUserAsAdmin(t, superToken, { group_id: groupId });
      return (await t.tokensFor(u.email, u.password)).accessToken;
    };
    member = await signIn(groupA.id);
    outsider = await signIn(groupB.id);
    plain = (await t.signUp()).session.accessToken;
    // Group A: one turn on model A; group B: two on model B; the plain user: one on model B.
    const turn = async (token: string, model: string) => {
      const conv = await createConversation(t, token, { model_name: model });
      await chatTurn(t, token, conv.id, 'hello');
    };
    await turn(member, 'scope-a');
    await turn(outsider, 'scope-b');
    await turn(outsider, 'scope-b');
    await turn(plain, 'scope-b');
  });
  afterAll(async () => {
    await t.close();
  });

  it('shows a super administrator the whole site', async () => {
    const rt = await realtime(t, superToken);
    expect(rt).toMatchObject({ scope: 'site', today_messages: 8, today_active_users: 3, today_conversations: 4 });
    expect(rt.total_users).toBeGreaterThanOrEqual(5);
    expect(rt.popular_models.map((m) => [m.display_name, m.usage_count])).toEqual([
      ['Scope B', 3],
      ['Scope A', 1],
    ]);
  });

  it('shows a group administrator their group only, members online included', async () => {
    // The outsider is online too, but not in this group.
    await t.post('/api/stats/heartbeat', undefined, outsider);
    await t.post('/api/stats/heartbeat', undefined, member);
    const rt = await realtime(t, groupAdmin);
    expect(rt).toMatchObject({
      scope: 'group',
      today_messages: 2,
      today_active_users: 1,
      today_conversations: 1,
      total_users: 2,
      online_users: 2,
    });
    expect(rt.popular_models.map((m) => m.display_name)).toEqual(['Scope A']);
  });

  it('shows a plain user their own figures, never the platform’s', async () => {
    const rt = await realtime(t, plain);
    expect(rt).toMatchObject({
      scope: 'user',
      today_messages: 2,
      today_active_users: 1,
      today_conversations: 1,
      total_users: 1,
      online_users: 1,
    });
    expect(rt.popular_models).toEqual([{ model_name: 'scope-b', display_name: 'Scope B', usage_count: 1 }]);
    const other = await realtime(t, outsider);
    expect(other).toMatchObject({ scope: 'user', today_messages: 4 });
    expect(other.popular_models).toEqual([{ model_name: 'scope-b', display_name: 'Scope B', usage_count: 2 }]);
  });

  it('counts a group’s members online when more users are online than one statement may take parameters', async () => {
    // PostgreSQL takes at most 65,535 parameters in a statement, SQLite 32,766: 70,000
    // online accounts (ids of no member; marked online directly) are more than either.
    for (let id = 10_000_000; id < 10_070_000; id += 1) t.presence.seen(id);
    await t.post('/api/stats/heartbeat', undefined, member);
    await t.post('/api/stats/heartbeat', undefined, outsider);
    expect(await realtime(t, groupAdmin)).toMatchObject({ scope: 'group', online_users: 2, total_users: 2 });
    expect((await realtime(t, superToken)).online_users).toBeGreaterThanOrEqual(70_003);
  });
});
