import { describe, expect, it } from 'vitest';
import { answerTokens, estimateTokens } from './tokens.js';

const USAGE = { inputTokens: 40, outputTokens: 900, totalTokens: 940 };

describe('answerTokens', () => {
  it('takes the provider’s usage for a finished answer', () => {
    expect(answerTokens({ kind: 'finished', finishReason: 'stop', usage: USAGE }, 'prompt', 'all of it')).toBe(940);
    expect(answerTokens({ kind: 'finished', finishReason: 'length', usage: USAGE }, 'prompt', 'cut by length')).toBe(
      940,
    );
  });

  it('counts a stopped, timed-out or broken-off answer by the text kept', () => {
    const kept = 'only the first words';
    const expected = estimateTokens('prompt') + estimateTokens(kept);
    expect(answerTokens({ kind: 'aborted', reason: 'client' }, 'prompt', kept)).toBe(expected);
    expect(answerTokens({ kind: 'aborted', reason: 'timeout' }, 'prompt', kept)).toBe(expected);
    expect(answerTokens({ kind: 'failed', error: new Error('gone') }, 'prompt', kept)).toBe(expected);
  });

  it('estimates a finished answer whose provider reported no usage', () => {
    expect(answerTokens({ kind: 'finished', finishReason: 'stop', usage: undefined }, 'abcd', '你好')).toBe(3);
  });
});
