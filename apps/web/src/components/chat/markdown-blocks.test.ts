import { describe, expect, it } from 'vitest';
import { splitMarkdownBlocks } from './markdown-blocks';

describe('splitMarkdownBlocks', () => {
  it('splits paragraphs, lists and headings at blank lines', () => {
    expect(splitMarkdownBlocks('# Title\n\nFirst paragraph\nstill first\n\n- a\n- b')).toEqual([
      '# Title',
      'First paragraph\nstill first',
      '- a\n- b',
    ]);
  });

  it('keeps fenced code with blank lines in one block', () => {
    const code = '```ts\nconst a = 1;\n\nconst b = 2;\n```';
    expect(splitMarkdownBlocks(`Intro\n\n${code}\n\nAfter`)).toEqual(['Intro', code, 'After']);
    const tilde = '~~~\nx\n\ny\n~~~';
    expect(splitMarkdownBlocks(`${tilde}\n\nz`)).toEqual([tilde, 'z']);
  });

  it('keeps an unfinished fence (still streaming) in the last block', () => {
    expect(splitMarkdownBlocks('Intro\n\n```py\nprint(1)\n\nprint(2)')).toEqual([
      'Intro',
      '```py\nprint(1)\n\nprint(2)',
    ]);
  });

  it('keeps $$ math blocks together', () => {
    const math = '$$\na^2\n\n+ b^2\n$$';
    expect(splitMarkdownBlocks(`Formula:\n\n${math}\n\nDone`)).toEqual(['Formula:', math, 'Done']);
    expect(splitMarkdownBlocks('$$a^2$$\n\nnext')).toEqual(['$$a^2$$', 'next']);
  });

  it('does not split before an indented continuation of a list item', () => {
    const list = '1. Item\n\n    continued paragraph\n\n2. Next';
    expect(splitMarkdownBlocks(list)).toEqual(['1. Item\n\n    continued paragraph', '2. Next']);
  });

  it('drops only the blank lines between blocks', () => {
    expect(splitMarkdownBlocks('\n\na\n\n\n\nb\n')).toEqual(['a', 'b\n']);
    expect(splitMarkdownBlocks('')).toEqual([]);
  });
});
