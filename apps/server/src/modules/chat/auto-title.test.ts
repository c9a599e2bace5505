import { describe, expect, it } from 'vitest';
import { titleFromQuestion } from './auto-title.js';

describe('titleFromQuestion', () => {
  it('strips markdown so the sidebar shows words, not syntax', () => {
    expect(titleFromQuestion('Here is a table: | Name | Qty |\n|---|---|\n| a | 1 |')).toBe(
      'Here is a table: Name Qty a 1',
    );
    expect(titleFromQuestion('# Plan\n\n**Bold** and _em_ and ~~old~~')).toBe('Plan Bold and em and old');
    expect(titleFromQuestion('See [the docs](https://example.com) and ![chart](x.png)')).toBe('See the docs and chart');
    expect(titleFromQuestion('```ts\nconst a = 1;\n```')).toBe('const a = 1;');
    expect(titleFromQuestion('- one\n- two\n1. three')).toBe('one two three');
    expect(titleFromQuestion('> quoted `code` $x^2$')).toBe('quoted code x^2');
    expect(titleFromQuestion('snake_case_name stays')).toBe('snake_case_name stays');
  });

  it('keeps 30 characters, counting a CJK character or an emoji as one', () => {
    expect(titleFromQuestion('a'.repeat(40))).toBe('a'.repeat(30));
    expect(Array.from(titleFromQuestion('你好😀'.repeat(20)))).toHaveLength(30);
  });

  it('a question of markup only gives an empty title', () => {
    expect(titleFromQuestion('***')).toBe('');
  });
});
