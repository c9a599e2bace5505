import type { Message } from '@aiplatform/contracts';
import { describe, expect, it } from 'vitest';
import { noAnswerId, withNoAnswerMarks } from './no-answer';

const message = (id: string, role: Message['role'], status: Message['status'] = 'complete'): Message => ({
  id,
  conversation_id: 'c1',
  role,
  content: `text of ${id}`,
  files: [],
  file: null,
  created_at: '2026-01-01T00:00:00.000Z',
  tokens: 0,
  model_name: null,
  status,
});

describe('withNoAnswerMarks', () => {
  it('puts a "no answer" stand-in right after each unanswered question, pointing back at it', () => {
    const list = [message('q1', 'user', 'unanswered'), message('q2', 'user'), message('a2', 'assistant')];
    const out = withNoAnswerMarks(list, 'No answer');
    expect(out.map((m) => m.id)).toEqual(['q1', noAnswerId('q1'), 'q2', 'a2']);
    expect(out[1]).toMatchObject({
      role: 'assistant',
      temp: true,
      failure: { message: 'No answer', questionId: 'q1', content: 'text of q1' },
    });
  });

  it('shows the kept reason and model of a failed turn, as the live failure did', () => {
    const failed = { ...message('q1', 'user', 'unanswered'), error_code: 'UPSTREAM_ERROR', model_name: 'gpt-x' };
    const out = withNoAnswerMarks([failed], 'No answer', (code) => `reason of ${code}`);
    expect(out[1]).toMatchObject({ model_name: 'gpt-x', failure: { message: 'reason of UPSTREAM_ERROR' } });
    // Without a kept code (a stop before the first word), the general reason.
    expect(withNoAnswerMarks([message('q2', 'user', 'unanswered')], 'No answer', () => 'x')[1]).toMatchObject({
      failure: { message: 'No answer' },
    });
  });

  it('leaves answered conversations unchanged', () => {
    const list = [message('q1', 'user'), message('a1', 'assistant', 'error')];
    expect(withNoAnswerMarks(list, 'x')).toEqual(list);
  });
});
