import type { UsageOverview } from '@aiplatform/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyHolder } from '../../../test/api-key-helpers.js';
import { createChatApp, createConversation, expectLedgerConsistent } from '../../../test/chat-helpers.js';
import type { TestApp } from '../../../test/test-app.js';
import { openaiFor } from '../../../test/v1-helpers.js';

/** The statistics and the charge-back CSV tell the site's chat and API keys apart. */
describe('usage split between the chat and API keys', () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    ({ t } = await createChatApp());
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    admin = (await t.loginAsAdmin()).accessToken;
  });
  afterAll(async () => {
    await expectLedgerConsistent(t);
    t.app.server.closeAllConnections();
    await t.close();
  });

  it('counts API requests in the totals and apart per key, in the overview and the CSV', async () => {
    const k = await keyHolder(t, { name: 'reporting script' });
    const client = openaiFor(t, k.secret);
    for (const content of ['one', 'two'])
      await client.chat.completions.create({ model: 'fake-echo', messages: [{ role: 'user', content }] });
    // A refunded request counts nowhere.
    await client.chat.completions
      .create({ model: 'fake-error', messages: [{ role: 'user', content: 'x' }] })
      .catch(() => undefined);
    const c = await createConversation(t, k.accessToken);
    expect(
      (await t.post(`/api/chat/conversations/${c.id}/messages`, { content: 'ui', stream: false }, k.accessToken))
        .status,
    ).toBe(200);

    const overview = (await t.get<UsageOverview>('/api/admin/stats/overview?days=7', admin)).body.data;
    expect(overview.sources?.api).toMatchObject({ requests: 2, credits: 20 });
    expect(overview.sources?.ui.credits).toBe(overview.totals.credits - 20);
    expect(overview.api_keys).toEqual([
      expect.objectContaining({
        api_key_id: k.id,
        key_name: 'reporting script',
        user_id: k.userId,
        requests: 2,
        credits: 20,
      }),
    ]);

    const csv = await t.get('/api/admin/stats/export.csv?days=7', admin);
    expect(csv.status).toBe(200);
    const [head, ...lines] = csv.text.trim().split(/\r?\n/);
    const columns = head!.split(',');
    expect(columns).toEqual(expect.arrayContaining(['ui_credits', 'api_credits', 'api_requests', 'api_tokens']));
    const rows = lines.map(
      (l) => Object.fromEntries(l.split(',').map((v, i) => [columns[i], v])) as Record<string, string>,
    );
    const mine = rows.find((r) => r.user_id === String(k.userId) && r.model === 'fake-echo');
    expect(mine).toMatchObject({ credits: '30', ui_credits: '10', api_credits: '20', api_requests: '2' });
    expect(Number(mine?.api_tokens)).toBeGreaterThan(0);
  });
});
