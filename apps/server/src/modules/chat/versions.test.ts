import type { Message, NonStreamAnswer } from '@aiplatform/contracts';
import type { Kysely } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  createChatApp,
  createConversation,
  eventData,
  expectLedgerConsistent,
  ledger,
  parseSse,
  sendStreamed,
} from '../../../test/chat-helpers.js';
import type { FakeUpstream } from '../../../test/fake-upstream.js';
import type { TestApp } from '../../../test/test-app.js';
import { linkMessagesInOrder } from '../../db/migrations/0015-message-versions.js';

const base = (id: string) => `/api/chat/conversations/${id}`;
const texts = (ms: Message[]) => ms.map((m) => m.content.split('\n')[0]);

/** Edited questions and regenerated answers are versions kept side by side on the server. */
describe('message versions', () => {
  let t: TestApp;
  let fake: FakeUpstream;
  beforeAll(async () => {
    ({ t, fake } = await createChatApp());
  });
  afterEach(async () => {
    await expectLedgerConsistent(t);
  });
  afterAll(async () => {
    await t.close();
  });

  async function user() {
    const { session } = await t.signUp();
    return { token: session.accessToken, id: session.user.id };
  }
  async function send(token: string, convId: string, body: Record<string, unknown>) {
    const res = await t.post<NonStreamAnswer>(`${base(convId)}/messages`, { stream: false, ...body }, token);
    expect(res.status, res.text).toBe(200);
    return res.body.data;
  }
  async function shown(token: string, convId: string) {
    const res = await t.get<Message[]>(`${base(convId)}/messages`, token);
    expect(res.status).toBe(200);
    return res.body.data;
  }
  /** What the upstream was sent for the turn whose last question is `text`. */
  async function sentFor(text: string) {
    const r = await fake.waitFor((x) => x.lastUserText === text);
    return r.messages.map(
      (m) =>
        `${m.role}:${String(typeof m.content === 'string' ? m.content : JSON.stringify(m.content)).split('\n')[0]}`,
    );
  }
  /** Two turns, then the second question edited: q1 a1 (q2 a2 | q2' a2'). */
  async function edited() {
    fake.requests.length = 0;
    const u = await user();
    const conv = await createConversation(t, u.token);
    const one = await send(u.token, conv.id, { content: 'q1' });
    const two = await send(u.token, conv.id, { content: 'q2' });
    const edit = await send(u.token, conv.id, { content: 'q2 edited', parent_id: one.assistant_message.id });
    return { u, conv, one, two, edit };
  }

  it('an edit is a sibling of the question, shown at once, with sibling_ids and parent_id', async () => {
    const { u, conv, one, two, edit } = await edited();
    expect(edit.user_message.parent_id).toBe(one.assistant_message.id);
    expect(edit.assistant_message.parent_id).toBe(edit.user_message.id);
    const list = await shown(u.token, conv.id);
    expect(texts(list)).toEqual(['q1', 'Echo: q1', 'q2 edited', 'Echo: q2 edited']);
    expect(list.map((m) => m.parent_id)).toEqual([
      null,
      one.user_message.id,
      one.assistant_message.id,
      edit.user_message.id,
    ]);
    expect(list.map((m) => m.sibling_ids)).toEqual([
      [one.user_message.id],
      [one.assistant_message.id],
      [two.user_message.id, edit.user_message.id],
      [edit.assistant_message.id],
    ]);
    // Nothing was deleted: both versions are stored, each a billed turn.
    const consumed = (await ledger(t, u.id)).filter((r) => r.transaction_type === 'chat_consume');
    expect(consumed.map((r) => r.amount)).toEqual([-10, -10, -10]);
    const detail = await t.get<{ message_count: number }>(base(conv.id), u.token);
    expect(detail.body.data.message_count).toBe(6);
  });

  it('sends the model only the history along the branch being answered', async () => {
    const { u, conv, two } = await edited();
    expect(await sentFor('q2 edited')).toEqual(['user:q1', 'assistant:Echo: q1', 'user:q2 edited']);
    // Back on the first version, a follow-up continues that branch only.
    await t.put(`${base(conv.id)}/active`, { message_id: two.user_message.id }, u.token);
    fake.requests.length = 0;
    await send(u.token, conv.id, { content: 'q3 after q2' });
    expect(await sentFor('q3 after q2')).toEqual([
      'user:q1',
      'assistant:Echo: q1',
      'user:q2',
      'assistant:Echo: q2',
      'user:q3 after q2',
    ]);
  });

  it('PUT active shows the other branch with its newest descendants, for every later read', async () => {
    const { u, conv, one, two } = await edited();
    const res = await t.put<Message[]>(`${base(conv.id)}/active`, { message_id: two.user_message.id }, u.token);
    expect(res.status).toBe(200);
    expect(texts(res.body.data)).toEqual(['q1', 'Echo: q1', 'q2', 'Echo: q2']);
    expect(texts(await shown(u.token, conv.id))).toEqual(['q1', 'Echo: q1', 'q2', 'Echo: q2']);
    // Showing an ancestor follows its newest descendants (the edit is newer than q2).
    await t.put(`${base(conv.id)}/active`, { message_id: one.user_message.id }, u.token);
    expect(texts(await shown(u.token, conv.id))).toEqual(['q1', 'Echo: q1', 'q2 edited', 'Echo: q2 edited']);
  });

  it('regenerate adds an answer under the same question, billed, not stream', async () => {
    const u = await user();
    const conv = await createConversation(t, u.token);
    const one = await send(u.token, conv.id, { content: 'q1' });
    await send(u.token, conv.id, { content: 'q2' });
    const before = (await t.userRow(u.id)).credits_used;
    fake.requests.length = 0;
    const res = await t.post<NonStreamAnswer>(
      `${base(conv.id)}/messages/${one.user_message.id}/regenerate`,
      { stream: false },
      u.token,
    );
    expect(res.status, res.text).toBe(200);
    const again = res.body.data;
    expect(again.user_message.id).toBe(one.user_message.id);
    expect(again.assistant_message).toMatchObject({ parent_id: one.user_message.id, status: 'complete' });
    expect(again.credits_info).toEqual({ credits_consumed: 10, credits_remaining: 1000 - before - 10 });
    expect((await t.userRow(u.id)).credits_used).toBe(before + 10);
    const rows = await ledger(t, u.id);
    expect(rows.at(-1)).toMatchObject({
      transaction_type: 'chat_consume',
      amount: -10,
      reference_id: again.assistant_message.id,
    });
    // Only the question's history went to the model: nothing of q2, which came after it.
    expect(await sentFor('q1')).toEqual(['user:q1']);
    const list = await shown(u.token, conv.id);
    expect(texts(list)).toEqual(['q1', 'Echo: q1']);
    expect(list[1]?.sibling_ids).toEqual([one.assistant_message.id, again.assistant_message.id]);
    // The question is not duplicated; the conversation counts one message more.
    const questions = await t.db
      .selectFrom('messages')
      .select('id')
      .where('conversation_id', '=', conv.id)
      .where('role', '=', 'user')
      .execute();
    expect(questions).toHaveLength(2);
    const detail = await t.get<{ message_count: number }>(base(conv.id), u.token);
    expect(detail.body.data.message_count).toBe(5);
  });

  it('regenerate streams like a send', async () => {
    const u = await user();
    const conv = await createConversation(t, u.token);
    const one = await send(u.token, conv.id, { content: 'q1' });
    const res = await t.app.inject({
      method: 'POST',
      url: `${base(conv.id)}/messages/${one.user_message.id}/regenerate`,
      headers: { authorization: `Bearer ${u.token}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ stream: true }),
    });
    expect(res.statusCode).toBe(200);
    const { events } = parseSse(res.body);
    const [init] = eventData(events, 'init');
    const [done] = eventData(events, 'done');
    expect(init?.user_message.id).toBe(one.user_message.id);
    expect(init?.credits_info.credits_consumed).toBe(10);
    expect(done).toMatchObject({ messageId: init?.ai_message_id, finish_reason: 'stop' });
    const list = await shown(u.token, conv.id);
    expect(list.map((m) => m.id)).toEqual([one.user_message.id, init?.ai_message_id]);
    expect(list[1]?.sibling_ids).toEqual([one.assistant_message.id, init?.ai_message_id]);
    expect((await t.userRow(u.id)).credits_used).toBe(20);
  });

  it('retry of a failed turn answers in place: the question is answered where it was, not moved', async () => {
    const u = await user();
    const conv = await createConversation(t, u.token);
    const model = (name: string) => t.put(base(conv.id), { model_name: name }, u.token);
    await send(u.token, conv.id, { content: 'first' });
    await model('fake-error');
    await sendStreamed(t, u.token, conv.id, { content: 'lost' });
    await model('fake-echo');
    await send(u.token, conv.id, { content: 'after lost' });
    let list = await shown(u.token, conv.id);
    const lost = list[2] as Message;
    expect(lost).toMatchObject({ content: 'lost', status: 'unanswered' });
    // A failed retry keeps it unanswered, refunded, and the turn after it where it was.
    await model('fake-error');
    const failed = await t.post(`${base(conv.id)}/messages/${lost.id}/regenerate`, { stream: false }, u.token);
    expect(failed.status).toBe(502);
    list = await shown(u.token, conv.id);
    expect(texts(list)).toEqual(['first', 'Echo: first', 'lost', 'after lost', 'Echo: after lost']);
    expect(list[2]).toMatchObject({ id: lost.id, status: 'unanswered' });
    await model('fake-echo');
    const res = await t.post<NonStreamAnswer>(
      `${base(conv.id)}/messages/${lost.id}/regenerate`,
      { stream: false },
      u.token,
    );
    expect(res.status, res.text).toBe(200);
    list = await shown(u.token, conv.id);
    expect(texts(list)).toEqual(['first', 'Echo: first', 'lost', 'Echo: lost', 'after lost', 'Echo: after lost']);
    // No longer a failed turn: its reason and the model it failed on are gone.
    expect(list[2]).toMatchObject({ id: lost.id, status: 'complete', error_code: null, model_name: null });
    expect(list.every((m) => m.sibling_ids?.length === 1)).toBe(true);
    // Answered now, it is part of what the model is told.
    fake.requests.length = 0;
    await send(u.token, conv.id, { content: 'next' });
    expect(await sentFor('next')).toEqual([
      'user:first',
      'assistant:Echo: first',
      'user:lost',
      'assistant:Echo: lost',
      'user:after lost',
      'assistant:Echo: after lost',
      'user:next',
    ]);
    // Four answered turns charged; the two that failed were refunded.
    expect((await t.userRow(u.id)).credits_used).toBe(40);
  });

  it('deleting a version removes its subtree and shows a remaining branch', async () => {
    const { u, conv, one, two, edit } = await edited();
    const again = await t.post<NonStreamAnswer>(
      `${base(conv.id)}/messages/${edit.user_message.id}/regenerate`,
      { stream: false },
      u.token,
    );
    // An answer with a sibling goes alone (with anything below it).
    const res = await t.request<{ deleted_ids: string[] }>(
      'DELETE',
      `${base(conv.id)}/messages/${again.body.data.assistant_message.id}`,
      { token: u.token },
    );
    expect(res.status).toBe(200);
    expect(res.body.data.deleted_ids).toEqual([again.body.data.assistant_message.id]);
    expect(texts(await shown(u.token, conv.id))).toEqual(['q1', 'Echo: q1', 'q2 edited', 'Echo: q2 edited']);
    // A follow-up under the first version, then that version deleted: its whole subtree goes.
    await t.put(`${base(conv.id)}/active`, { message_id: two.user_message.id }, u.token);
    const follow = await send(u.token, conv.id, { content: 'q3' });
    const gone = await t.request<{ deleted_ids: string[] }>(
      'DELETE',
      `${base(conv.id)}/messages/${two.assistant_message.id}`,
      { token: u.token },
    );
    expect(gone.status).toBe(200);
    expect(new Set(gone.body.data.deleted_ids)).toEqual(
      new Set([two.user_message.id, two.assistant_message.id, follow.user_message.id, follow.assistant_message.id]),
    );
    const list = await shown(u.token, conv.id);
    expect(texts(list)).toEqual(['q1', 'Echo: q1', 'q2 edited', 'Echo: q2 edited']);
    expect(list[2]?.sibling_ids).toEqual([edit.user_message.id]);
    const left = await t.db.selectFrom('messages').select('id').where('conversation_id', '=', conv.id).execute();
    expect(left).toHaveLength(4);
    const detail = await t.get<{ message_count: number }>(base(conv.id), u.token);
    expect(detail.body.data.message_count).toBe(4);
    expect(one.user_message.parent_id).toBeNull();
  });

  it('refuses unknown, foreign and wrong ids with a translated 4xx and charges nothing', async () => {
    const u = await user();
    const other = await user();
    const conv = await createConversation(t, u.token);
    const elsewhere = await createConversation(t, u.token);
    const one = await send(u.token, conv.id, { content: 'q1' });
    const foreign = await send(u.token, elsewhere.id, { content: 'far' });
    const used = (await t.userRow(u.id)).credits_used;
    const unknown = '00000000-0000-4000-8000-000000000000';

    const regen = (convId: string, id: string, token = u.token) =>
      t.request('POST', `${base(convId)}/messages/${id}/regenerate`, { body: { stream: false }, token, lang: 'zh-CN' });
    for (const r of [
      await regen(conv.id, unknown),
      await regen(conv.id, foreign.user_message.id),
      await regen(conv.id, one.user_message.id, other.token),
      await t.post(`${base(conv.id)}/messages`, { content: 'x', stream: false, parent_id: unknown }, u.token),
      await t.post(
        `${base(conv.id)}/messages`,
        { content: 'x', stream: false, parent_id: foreign.assistant_message.id },
        u.token,
      ),
      await t.put(`${base(conv.id)}/active`, { message_id: foreign.user_message.id }, u.token),
      await t.put(`${base(conv.id)}/active`, { message_id: one.user_message.id }, other.token),
    ]) {
      expect(r.status, r.text).toBe(404);
      expect(r.body.error).toBe('NOT_FOUND');
    }
    const answer = await regen(conv.id, one.assistant_message.id);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ error: 'NOT_A_QUESTION', message: '只能为提问生成新的回答' });
    const malformed = await t.put(`${base(conv.id)}/active`, { message_id: 'nope' }, u.token, 'en-US');
    expect(malformed.status).toBe(400);
    expect(malformed.text).toContain('The message reference is not valid');
    const badParent = await t.post(`${base(conv.id)}/messages`, { content: 'x', parent_id: 42 }, u.token);
    expect(badParent.status).toBe(400);
    expect((await t.userRow(u.id)).credits_used).toBe(used);
    expect(texts(await shown(u.token, conv.id))).toEqual(['q1', 'Echo: q1']);
  });

  /** Sends in the background with a slow answer; resolves once the upstream is answering it. */
  async function sendingSlowly(token: string, convId: string, content: string, extra: Record<string, unknown> = {}) {
    const text = `${content} [fake:delay=60]`;
    const reply = t.post<NonStreamAnswer>(
      `${base(convId)}/messages`,
      { content: text, stream: false, ...extra },
      token,
    );
    await fake.waitFor((r) => r.lastUserText === text, { ended: false });
    const answer = await t.db
      .selectFrom('messages')
      .select(['id', 'parent_id'])
      .where('conversation_id', '=', convId)
      .where('status', '=', 'streaming')
      .orderBy('seq', 'desc')
      .executeTakeFirstOrThrow();
    return { reply, answerId: answer.id, questionId: answer.parent_id as string };
  }

  it('a question follows only a finished answer or a question left unanswered: else 400, nothing charged', async () => {
    const u = await user();
    const conv = await createConversation(t, u.token);
    const one = await send(u.token, conv.id, { content: 'q1' });
    const running = await sendingSlowly(u.token, conv.id, 'q2');
    const used = (await t.userRow(u.id)).credits_used;
    const ask = (parentId: string, lang: 'zh-CN' | 'en-US') =>
      t.request('POST', `${base(conv.id)}/messages`, {
        body: { content: 'beside an answer', stream: false, parent_id: parentId },
        token: u.token,
        lang,
      });
    // A question that has an answer, or is getting one, and an answer still streaming.
    for (const parentId of [one.user_message.id, running.questionId, running.answerId]) {
      const zh = await ask(parentId, 'zh-CN');
      expect(zh.status, zh.text).toBe(400);
      expect(zh.body).toMatchObject({
        error: 'FOLLOW_UP_NOT_ALLOWED',
        message: '新提问只能接在已完成的回答或未获回答的提问之后',
      });
    }
    const en = await ask(one.user_message.id, 'en-US');
    expect(en.body).toMatchObject({
      error: 'FOLLOW_UP_NOT_ALLOWED',
      message: 'A new question can only follow a finished answer or a question left unanswered',
    });
    expect((await t.userRow(u.id)).credits_used).toBe(used);
    expect((await running.reply).status).toBe(200);
    const stored = await t.db.selectFrom('messages').select('id').where('conversation_id', '=', conv.id).execute();
    expect(stored).toHaveLength(4);

    // Accepted: a question left unanswered (the new one hangs under it), an answer broken off
    // with text, a finished answer, and null (a new first question).
    const model = (name: string) => t.put(base(conv.id), { model_name: name }, u.token);
    await model('fake-error');
    await sendStreamed(t, u.token, conv.id, { content: 'lost' });
    const lost = (await shown(u.token, conv.id)).at(-1) as Message;
    expect(lost).toMatchObject({ content: 'lost', status: 'unanswered' });
    await model('fake-drop');
    const after = await sendStreamed(t, u.token, conv.id, { content: 'after lost', parent_id: lost.id });
    expect(after.status).toBe(200);
    const broken = (await shown(u.token, conv.id)).at(-1) as Message;
    expect(broken).toMatchObject({ role: 'assistant', status: 'error' });
    expect(broken.content).not.toBe('');
    await model('fake-echo');
    const next = await send(u.token, conv.id, { content: 'after broken', parent_id: broken.id });
    expect(next.user_message.parent_id).toBe(broken.id);
    await send(u.token, conv.id, { content: 'again', parent_id: next.assistant_message.id });
    await send(u.token, conv.id, { content: 'new first', parent_id: null });
    const list = await shown(u.token, conv.id);
    expect(texts(list)).toEqual(['new first', 'Echo: new first']);
  });

  it('a failed retry hands what followed the question to its answer that remains, not beside it', async () => {
    const u = await user();
    const conv = await createConversation(t, u.token);
    const model = (name: string) => t.put(base(conv.id), { model_name: name }, u.token);
    await send(u.token, conv.id, { content: 'first' });
    await model('fake-error');
    await sendStreamed(t, u.token, conv.id, { content: 'lost' });
    await model('fake-echo');
    const follow = await send(u.token, conv.id, { content: 'after lost' });
    const lost = follow.user_message.parent_id as string;
    // Two retries at once: the first hangs (and is stopped before its first word), the second is answered.
    await model('fake-hang');
    fake.requests.length = 0;
    const hanging = t.post(`${base(conv.id)}/messages/${lost}/regenerate`, { stream: false }, u.token);
    await fake.waitFor((r) => r.lastUserText === 'lost', { ended: false });
    await model('fake-echo');
    const answered = await t.post<NonStreamAnswer>(
      `${base(conv.id)}/messages/${lost}/regenerate`,
      { stream: false },
      u.token,
    );
    expect(answered.status, answered.text).toBe(200);
    const stop = await t.post(`${base(conv.id)}/stop`, {}, u.token);
    expect(stop.status, stop.text).toBe(200);
    await hanging;

    const after = await t.db
      .selectFrom('messages')
      .select('parent_id')
      .where('id', '=', follow.user_message.id)
      .executeTakeFirstOrThrow();
    expect(after.parent_id).toBe(answered.body.data.assistant_message.id);
    await t.put(`${base(conv.id)}/active`, { message_id: follow.assistant_message.id }, u.token);
    const list = await shown(u.token, conv.id);
    expect(texts(list)).toEqual(['first', 'Echo: first', 'lost', 'Echo: lost', 'after lost', 'Echo: after lost']);
    expect(list.every((m) => m.sibling_ids?.length === 1)).toBe(true);
    expect(list[2]).toMatchObject({ id: lost, status: 'complete' });
    expect((await t.userRow(u.id)).credits_used).toBe(30);
  });

  it('GET …/stream follows the answer streaming on the branch shown, not the newest elsewhere', async () => {
    const u = await user();
    const conv = await createConversation(t, u.token);
    await send(u.token, conv.id, { content: 'q1' });
    const shownOne = await sendingSlowly(u.token, conv.id, 'version a', { parent_id: null });
    const otherOne = await sendingSlowly(u.token, conv.id, 'version b', { parent_id: null });
    // Another device shows the older version's branch.
    const put = await t.put(`${base(conv.id)}/active`, { message_id: shownOne.questionId }, u.token);
    expect(put.status, put.text).toBe(200);
    const res = await t.app.inject({
      method: 'GET',
      url: `${base(conv.id)}/stream`,
      headers: { authorization: `Bearer ${u.token}` },
    });
    expect(res.statusCode).toBe(200);
    const [resumed] = eventData(parseSse(res.body).events, 'resume');
    expect(resumed?.message_id).toBe(shownOne.answerId);
    await Promise.all([shownOne.reply, otherOne.reply]);
  });

  it('the migration links the messages of an existing conversation into one chain', async () => {
    const u = await user();
    const conv = await createConversation(t, u.token);
    const now = new Date().toISOString();
    const rows = [
      { id: crypto.randomUUID(), role: 'user' as const, content: 'old q1', status: 'complete' as const },
      { id: crypto.randomUUID(), role: 'assistant' as const, content: 'old a1', status: 'complete' as const },
      { id: crypto.randomUUID(), role: 'user' as const, content: 'old q2', status: 'unanswered' as const },
      { id: crypto.randomUUID(), role: 'user' as const, content: 'old q3', status: 'complete' as const },
      { id: crypto.randomUUID(), role: 'assistant' as const, content: 'old a3', status: 'complete' as const },
    ];
    for (const r of rows) {
      await t.db
        .insertInto('messages')
        .values({ ...r, conversation_id: conv.id, parent_id: null, tokens: 1, model_name: null, created_at: now })
        .execute();
    }
    await linkMessagesInOrder(t.db as unknown as Kysely<unknown>);
    const linked = await t.db
      .selectFrom('messages')
      .select(['id', 'parent_id'])
      .where('conversation_id', '=', conv.id)
      .orderBy('seq')
      .execute();
    expect(linked.map((m) => m.parent_id)).toEqual([null, ...rows.slice(0, -1).map((r) => r.id)]);
    const list = await shown(u.token, conv.id);
    expect(texts(list)).toEqual(['old q1', 'old a1', 'old q2', 'old q3', 'old a3']);
    expect(list.every((m) => m.sibling_ids?.length === 1)).toBe(true);
    // The next question follows the last one and the model hears the chain (not the unanswered one).
    fake.requests.length = 0;
    await send(u.token, conv.id, { content: 'new q' });
    expect(await sentFor('new q')).toEqual([
      'user:old q1',
      'assistant:old a1',
      'user:old q3',
      'assistant:old a3',
      'user:new q',
    ]);
  });
});
