import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addModel, createChatApp, createConversation, eventData, sendStreamed } from '../../../test/chat-helpers.js';
import { makePdf, uploadReady } from '../../../test/document-files.js';
import type { FakeUpstream, RecordedRequest } from '../../../test/fake-upstream.js';
import type { TestApp } from '../../../test/test-app.js';

const FACT = 'The penalty for late delivery is four and a half percent per week of delay.';
const CLAUSES = [
  'The supplier shall deliver the goods to the site named in the order within the agreed time.',
  'Invoices are payable within thirty days of receipt unless the parties agree otherwise in writing.',
  'Each party keeps the other party informed of any change that may affect the schedule.',
  'The buyer inspects the goods on arrival and reports visible damage to the carrier at once.',
  'Maintenance of the equipment follows the manual supplied with it and the local safety rules.',
  'Training sessions for the operators are held at the start of each quarter at the main plant.',
];

/** Forty pages of clauses, the fact on page 27 only. */
const contract = () =>
  Array.from({ length: 40 }, (_, i) => {
    const lines = Array.from({ length: 12 }, (_, k) => `${i + 1}.${k + 1} ${CLAUSES[(i + k) % CLAUSES.length]}`);
    if (i + 1 === 27) lines.splice(3, 0, FACT);
    return lines.join('\n');
  });

/** Uploaded and extracted for real: the text the workers read is what the model is sent. */
describe('uploaded documents in a turn', () => {
  let t: TestApp;
  let fake: FakeUpstream;
  beforeAll(async () => {
    ({ t, fake } = await createChatApp());
    await addModel(t, fake, { name: 'small-window', context_window: 2000 });
  });
  afterAll(async () => {
    await t.close();
  });

  const lastUserText = (r: RecordedRequest | undefined) => {
    const m = r?.messages.filter((x) => x.role === 'user').at(-1);
    return typeof m?.content === 'string' ? m.content : '';
  };

  it('sends a three-page PDF whole, its pages marked, and cites it without a page', async () => {
    const { session } = await t.signUp();
    const token = session.accessToken;
    const pdf = await uploadReady(
      t,
      token,
      'memo.pdf',
      await makePdf(['Apples first.', 'The code word is papaya.', 'End.']),
    );
    expect(pdf).toMatchObject({ status: 'ready', pages: 3 });
    const conv = await createConversation(t, token);

    const res = await sendStreamed(t, token, conv.id, { content: 'What is the code word?', file_ids: [pdf.id] });
    const text = lastUserText(fake.requests.at(-1));
    expect(text).toMatch(/^<document name="memo\.pdf" pages="3">\n\[page 1\]\nApples first\.\n\n\[page 2\]\n/);
    expect(text).toContain('The code word is papaya.');
    expect(text.endsWith('</document>\n\nWhat is the code word?')).toBe(true);
    const citations = eventData(res.events, 'done')[0]?.citations ?? [];
    expect(citations).toHaveLength(1);
    expect(citations[0]).toMatchObject({ file_id: pdf.id, name: 'memo.pdf', page: null });
    expect(citations[0]?.snippet.startsWith('Apples first.')).toBe(true);
  });

  it('finds the fact on page 27 of a 40-page PDF by relevance, sending far less than the document', async () => {
    const { session } = await t.signUp();
    const token = session.accessToken;
    const pages = contract();
    const pdf = await uploadReady(t, token, 'contract.pdf', await makePdf(pages));
    expect(pdf).toMatchObject({ status: 'ready', pages: 40 });
    const conv = await createConversation(t, token, { model_name: 'small-window' });

    const res = await sendStreamed(t, token, conv.id, {
      content: 'What is the penalty for late delivery?',
      file_ids: [pdf.id],
    });
    expect(res.status).toBe(200);
    const text = lastUserText(fake.requests.at(-1));
    expect(text).toContain(FACT);
    expect(text.length).toBeLessThan(pages.join('\n').length / 5);
    const citations = eventData(res.events, 'done')[0]?.citations ?? [];
    expect(citations[0]).toMatchObject({ file_id: pdf.id, name: 'contract.pdf', page: 27 });
  });
});
